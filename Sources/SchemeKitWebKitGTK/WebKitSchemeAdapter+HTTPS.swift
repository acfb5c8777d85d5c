// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import Foundation
    public import SchemeKit
    import SchemeKitBrowserSupport

    #if canImport(Glibc)
        import Glibc
    #endif

    extension WebKitSchemeAdapter {
        /// Serves `origins` as real https origins (`https://app.localhost/`) to the views of the
        /// returned network session, from this adapter's registry: what a custom scheme cannot be
        /// on WebKitGTK.
        ///
        /// A page on a custom scheme (`app://`) keeps no cookies, cannot open the Cache API and
        /// cannot register a service worker (WebKit allows them for http and https only), and a
        /// shared worker's `fetch` there fails. At an https origin served this way it behaves as it
        /// does from a web server: the adapter runs a listener on 127.0.0.1 that only this process
        /// and its children (WebKit's network process) may connect to, and the session's proxy
        /// setting sends its https requests there. The requests of `origins` are answered from the
        /// registry over TLS, with a key made for this adapter and trusted by this session only
        /// (`webkit_network_session_allow_tls_certificate_for_host`); any other https host is
        /// tunnelled to the network unchanged. Bodies stream as the handler writes them; each
        /// request is a record in ``records(bufferLimit:)`` and counts in ``statistics``, as
        /// the custom scheme's do.
        ///
        /// The session is ephemeral: nothing it stores (cookies, caches, storage) outlives it, or
        /// reaches another session. Make views on it with `WebViewSession.make(…, networkSession:)`.
        ///
        /// ```swift
        /// let session = try await adapter.httpsNetworkSession(origins: [VirtualOrigin(host: "app.localhost")])
        /// let view = try await WebViewSession.make(executor: executor, blankURL: "about:blank", networkSession: session)
        /// try await view.load("https://app.localhost/index.html")
        /// ```
        ///
        /// - Parameters:
        ///   - origins: The origins served; each host is `localhost` or ends in `.localhost` (RFC 6761:
        ///     never on the network), with no port. Each origin's `scheme` and `registryHost` name the
        ///     registry URL its requests are served as (`https://app.localhost/x` → `app://localhost/x`).
        ///   - requestTimeout: How long a request may take before its task is stopped and its
        ///     connection closed; `nil` for no limit. Default: 60 seconds.
        /// - Returns: A new `WebKitNetworkSession` (one reference the caller owns: `g_object_unref`).
        /// - Throws: `EngineError` with code `launchFailed` when an origin is not under `.localhost`
        ///   or the listener cannot start.
        public func httpsNetworkSession(origins: [VirtualOrigin], requestTimeout: Duration? = .seconds(60))
            async throws -> OpaquePointer
        {
            guard !origins.isEmpty, origins.allSatisfy(LoopbackOriginRoute.canServe) else {
                throw EngineError(
                    .launchFailed,
                    "an https origin served to WebKitGTK must be localhost or a host under .localhost, with no port: \(origins.map(\.host))"
                )
            }
            let server = try await loopbackServer()
            let client = state.withLock { state in
                if let client = state.httpsClient { return client }
                let client = HTTPSOriginClient(adapter: self)
                state.httpsClient = client
                return client
            }
            server.add(
                LoopbackOriginRoute(
                    origins: origins, registry: registry, requestTimeout: requestTimeout,
                    maximumRequestBodySize: maximumRequestBodySize, client: client),
                for: ObjectIdentifier(self))
            let port = server.port
            let certificate = server.identity.certificatePEM
            let hosts = origins.map(\.host)
            let made = try await executor.run { () throws(EngineError) -> UInt in
                let session = webkit_network_session_new_ephemeral()!
                let settings = webkit_network_proxy_settings_new(nil, nil)
                webkit_network_proxy_settings_add_proxy_for_scheme(settings, "https", "http://127.0.0.1:\(port)")
                webkit_network_session_set_proxy_settings(session, WEBKIT_NETWORK_PROXY_MODE_CUSTOM, settings)
                webkit_network_proxy_settings_free(settings)
                var error: UnsafeMutablePointer<GError>?
                guard let tls = g_tls_certificate_new_from_pem(certificate, -1, &error) else {
                    let message = error.map { String(cString: $0.pointee.message) } ?? "unknown"
                    g_error_free(error)
                    g_object_unref(UnsafeMutableRawPointer(session))
                    throw EngineError(.launchFailed, "the loopback origin's certificate: \(message)")
                }
                for host in hosts { webkit_network_session_allow_tls_certificate_for_host(session, tls, host) }
                g_object_unref(tls)
                return UInt(bitPattern: UnsafeMutableRawPointer(session))
            }
            return OpaquePointer(bitPattern: made)!
        }

        /// Stops serving the https origins: requests in flight are stopped
        /// (`SchemeRequestRecord/StopReason/adapterStopped`), their records published, and the
        /// listener closed. Views of the adapter's https sessions then fail to load from them.
        public func stopHTTPS() async {
            guard let server = state.withLock({ $0.loopback }) else { return }
            await server.remove(ObjectIdentifier(self))
            state.withLock { $0.loopback = nil }
            await server.close()
        }

        /// The adapter's loopback origin, started on first use. Only this process and its children
        /// (WebKit's network process) may connect; a `CONNECT` to any host the adapter does not
        /// serve is tunnelled, since the session's proxy setting covers every https host.
        private func loopbackServer() async throws -> LoopbackOriginServer {
            if let server = state.withLock({ $0.loopback }) { return server }
            guard LoopbackPeers.isSupported else {
                throw EngineError(.launchFailed, "https origins on WebKitGTK need Linux's /proc to check who connects")
            }
            let server: LoopbackOriginServer
            do {
                server = try await LoopbackOriginServer.start(tunnelsOtherHosts: true)
            } catch {
                throw EngineError(.launchFailed, "the loopback origin could not start: \(error)")
            }
            server.peers.setBrowser(getpid())
            let existing = state.withLock { state -> LoopbackOriginServer? in
                if let existing = state.loopback { return existing }
                state.loopback = server
                return nil
            }
            if let existing {
                await server.close()
                return existing
            }
            return server
        }
    }

    /// What counts and publishes the https origins' requests for a ``WebKitSchemeAdapter`` (the
    /// loopback origin holds it weakly; the adapter keeps it).
    final class HTTPSOriginClient: LoopbackOriginClient {
        private weak let adapter: WebKitSchemeAdapter?

        init(adapter: WebKitSchemeAdapter) {
            self.adapter = adapter
        }

        func loopbackRequestBegan() {
            adapter?.state.withLock { $0.statistics.intercepted += 1 }
        }

        func loopbackRequestEnded(_ record: SchemeRequestRecord) {
            adapter?.publish(
                record, ending: record.outcome, error: record.error, status: record.status ?? 0, bytes: record.bytes,
                handler: record.handler)
        }
    }
#endif
