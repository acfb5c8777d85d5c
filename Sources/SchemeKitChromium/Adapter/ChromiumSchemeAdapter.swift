#if Chromium
    public import SchemeKit
    import Foundation
    import SchemeKitBrowserSupport

    /// Serves virtual https origins to Chromium from a `SchemeRegistry`, through the
    /// DevTools Fetch domain: the Chromium engine adapter.
    ///
    /// ```swift
    /// let registry = SchemeRegistry()
    /// try registry.register(LocalFileHandler(root: appDirectory), for: "app")
    /// let browser = try await ChromiumBrowser.launch()
    /// let adapter = ChromiumSchemeAdapter(
    ///     registry: registry, browser: browser,
    ///     configuration: ChromiumAdapterConfiguration(origins: [VirtualOrigin(host: "app.localhost")]))
    /// try await adapter.start()
    /// let page = try await browser.newPage()
    /// try await page.navigate(to: "https://app.localhost/index.html")
    /// ```
    ///
    /// ## How a request is served
    /// `Fetch.enable` on the *browser* session pauses every request to the origins, service
    /// workers' included. For each `Fetch.requestPaused` the adapter builds a `SchemeRequest`
    /// (method, headers, body from `postDataEntries`) for the registry URL, starts a registry task,
    /// collects the response (CDP has no streaming fulfil) and answers `Fetch.fulfillRequest` with
    /// status, headers and body — raw bytes on CBOR, base64 on JSON.
    ///
    /// ## Several adapters on one browser
    /// Adapters with registries of their own may share a connection (a registry per tenant or per
    /// test, on one browser): Chromium is asked to pause the union of their origins, each request
    /// is served by the first started adapter whose origins name it, and stopping one leaves the
    /// others intercepting.
    ///
    /// ## Stops
    /// The task is stopped, and nothing more is sent for it, when Chromium reports the request
    /// canceled (`Network.loadingFailed {canceled: true}`, matched by `networkId` on auto-attached
    /// page sessions), when the page's target is destroyed, detached or crashes, and when
    /// ``ChromiumAdapterConfiguration/requestTimeout`` passes (Chromium is then told the request
    /// failed). A late answer Chromium refuses (-32602) is counted in ``statistics``.
    ///
    /// ## Large bodies
    /// Over JSON a body above ``ChromiumAdapterConfiguration/maximumJSONBodySize`` fails the request
    /// with `EngineError.Code.bodyTooLarge` (`Fetch.failRequest`), and the connection stays up.
    /// Open-ended ranges are capped (``ChromiumAdapterConfiguration/openEndedRangeCap``) so media is
    /// fetched in parts.
    public final class ChromiumSchemeAdapter: Sendable {
        /// The registry that answers.
        package let registry: SchemeRegistry
        /// The browser connection.
        package let connection: ChromiumConnection
        /// The configuration.
        package let configuration: ChromiumAdapterConfiguration

        package let state = Locked(State())

        /// The records of the requests that ended, for ``records(bufferLimit:)`` and renders.
        package let recordFeed = SchemeRequestRecordFeed()

        package struct Inflight: InflightRequest {
            package var task: SchemeTask?
            var networkId: String?
            var frameId: String?
            package var timer: Task<Void, Never>?
            var record: SchemeRequestRecord
        }

        package struct State: BrowserAdapterState {
            package var inflight: [String: Inflight] = [:]
            var byNetworkId: [String: String] = [:]
            var statistics = EngineAdapterStatistics()
            var autoAttached: [String: String] = [:]
            var loop: Task<Void, Never>?
            var undecodablePausedEvents = 0
            /// The browser's loopback origin, while this adapter is served from it.
            var loopback: LoopbackOriginServer?
        }

        deinit {
            // An adapter dropped without stop(): its origins are no longer served for it.
            state.withLock { $0.loopback }?.forget(ObjectIdentifier(self))
            let interception = connection.fetchInterception
            guard interception.remove(ObjectIdentifier(self)) else { return }
            let connection = self.connection
            Task { _ = try? await interception.update(on: connection) }
        }

        /// Creates an adapter serving `browser`; nothing is intercepted until ``start()``.
        ///
        /// - Parameters:
        ///   - registry: The registry that answers requests.
        ///   - browser: A launched or attached browser (``ChromiumBrowser/launch(_:)``,
        ///     ``ChromiumBrowser/connect(to:maximumMessageSize:timeout:)``).
        ///   - configuration: Origins and policies.
        public convenience init(
            registry: SchemeRegistry, browser: ChromiumBrowser, configuration: ChromiumAdapterConfiguration
        ) {
            self.init(registry: registry, connection: browser.connection, configuration: configuration)
        }

        /// Creates an adapter on a DevTools connection (a browser's, or a test's fake transport).
        package init(
            registry: SchemeRegistry, connection: ChromiumConnection, configuration: ChromiumAdapterConfiguration
        ) {
            self.registry = registry
            self.connection = connection
            self.configuration = configuration
        }

        /// Starts serving the origins: from the browser's loopback https origin, or through the Fetch
        /// domain (`BrowserTransport`).
        ///
        /// Every origin is granted the `loopback-network` permission first, so the page may call a
        /// backend on 127.0.0.1 (Local Network Access). On the loopback origin nothing more is sent
        /// to Chromium. With interception the adapter listens for events, auto-attaches to pages (to
        /// see cancellations) and enables the Fetch domain on the browser session for every origin.
        ///
        /// A second call while started does nothing.
        ///
        /// - Throws: `EngineError` when Chromium refuses a command.
        public func start() async throws {
            // Started twice, every request would be answered twice: the second call does nothing.
            guard state.withLock({ $0.loop == nil }) else { return }
            let server = configuration.transport == .automatic ? connection.loopbackOrigin : nil
            // A pass policy other than the registry's 404 needs the request held by the protocol.
            let loopback =
                server != nil && configuration.whenPassed == .notFound && !configuration.origins.isEmpty
                && configuration.origins.allSatisfy(LoopbackOriginRoute.canServe)
            // On the loopback origin the sequence only tells when the connection closes.
            let events = connection.events(
                methods: loopback ? [] : Self.eventNames, bufferLimit: Self.eventBufferLimit)
            let loop = Task { [weak self] in
                for await event in events {
                    guard let self else { return }
                    self.handle(event)
                }
                self?.connectionClosed()
            }
            state.withLock { $0.loop = loop }
            for origin in configuration.origins {
                // Chromium 156 names it `loopback-network`; an older one has no such permission.
                _ = try? await connection.send(
                    "Browser.setPermission",
                    .object([
                        "permission": .object(["name": .string("loopback-network")]),
                        "setting": .string("granted"), "origin": .string("https://\(origin.host)"),
                    ]))
            }
            if loopback, let server {
                server.add(
                    LoopbackOriginRoute(
                        origins: configuration.origins, registry: registry,
                        requestTimeout: configuration.requestTimeout,
                        maximumRequestBodySize: configuration.maximumRequestBodySize, client: self),
                    for: ObjectIdentifier(self))
                state.withLock { $0.loopback = server }
                return
            }
            try await connection.send(CDP.SetDiscoverTargets(discover: true))
            try await connection.send(CDP.SetAutoAttach(waitForDebuggerOnStart: true))
            try await connection.fetchInterception.add(
                ObjectIdentifier(self), origins: configuration.origins, on: connection)
        }

        /// Stops intercepting and stops every task in flight. ``start()`` may run again.
        ///
        /// Other adapters on the same connection go on: the browser keeps their origins' patterns.
        /// When this was the last one, Fetch is disabled and pages are no longer auto-attached, so
        /// pages opened later load as if no adapter had run.
        public func stop() async {
            if let server = state.withLock({ $0.loopback }) {
                // Its requests in flight end here, as the adapter's, and their records are out first.
                await server.remove(ObjectIdentifier(self))
                let loop = state.withLock { state in
                    defer {
                        state.loop = nil
                        state.loopback = nil
                    }
                    return state.loop
                }
                loop?.cancel()
                await loop?.value
                connectionClosed()
                return
            }
            let interception = connection.fetchInterception
            interception.remove(ObjectIdentifier(self))
            _ = try? await interception.update(on: connection)
            if interception.isEmpty {
                // New pages must not wait for a debugger that no longer releases them.
                _ = try? await connection.send(CDP.SetAutoAttach(autoAttach: false, waitForDebuggerOnStart: false))
            }
            let loop = state.withLock { state in
                defer { state.loop = nil }
                return state.loop
            }
            // The requests still held end here, as the adapter's: not as a closed connection's.
            let held = state.withLock { Array($0.inflight.keys) }
            for id in held { stopRequest(id, reason: .adapterStopped, tellChromium: false) }
            loop?.cancel()
            // The loop ends with its own `connectionClosed()`: wait for it, so that the stopped
            // requests' records are published before the record sequences end.
            await loop?.value
            connectionClosed()
        }

        /// The counters so far.
        public var statistics: EngineAdapterStatistics { state.withLock { $0.statistics } }

        /// `Fetch.requestPaused` events that could not be read: each was failed at once when its
        /// `requestId` could be read (and then also counts as paused and failed in ``statistics``).
        package var undecodablePausedEvents: Int { state.withLock { $0.undecodablePausedEvents } }

        /// A record for each request from now on, as it ends.
        ///
        /// - Parameter bufferLimit: How many records the sequence holds unread; past it the oldest is
        ///   dropped and counted in `EngineAdapterStatistics.droppedRecords` (requests are never
        ///   held up by a slow reader). Default: 1024.
        /// - Returns: A sequence that ends after the last record when the adapter stops or its
        ///   connection closes, or when the caller stops iterating.
        public func records(bufferLimit: Int = 1024) -> AsyncStream<SchemeRequestRecord> {
            recordFeed.subscribe(bufferLimit: bufferLimit)
        }

        /// How many events the adapter's own subscription holds unread. The loop does only quick work
        /// per event, so this is reached only when the cooperative pool is starved for long; a drop is
        /// counted in ``ChromiumConnection/droppedEvents``.
        static let eventBufferLimit = 1 << 16

        static let eventNames: Set<String> = [
            "Fetch.requestPaused", "Network.loadingFailed", "Target.attachedToTarget", "Target.detachedFromTarget",
            "Target.targetDestroyed", "Target.targetCrashed",
        ]

        private func handle(_ event: CDPEvent) {
            switch event.method {
            case "Fetch.requestPaused":
                let paused: CDP.RequestPaused
                do {
                    // Read straight from the protocol value: one decode, no JSON round trip.
                    paused = try CDP.RequestPaused(params: event.params)
                } catch {
                    undecodablePause(event, error: error)
                    return
                }
                pause(paused, sessionId: event.sessionId)
            case "Network.loadingFailed":
                guard event.params["canceled"]?.boolValue == true,
                    let networkId = event.params["requestId"]?.stringValue,
                    let requestId = state.withLock({ $0.byNetworkId[networkId] })
                else { return }
                stopRequest(requestId, reason: .canceledByPage, tellChromium: false)
            case "Target.attachedToTarget":
                guard let attached = try? event.decode(CDP.AttachedToTarget.self) else { return }
                state.withLock { $0.autoAttached[attached.sessionId] = attached.targetInfo.targetId }
                prepare(attached)
            case "Target.detachedFromTarget":
                guard let sessionId = event.params["sessionId"]?.stringValue,
                    let targetId = state.withLock({ $0.autoAttached.removeValue(forKey: sessionId) })
                else { return }
                targetGone(targetId)
            case "Target.targetDestroyed", "Target.targetCrashed":
                guard let targetId = event.params["targetId"]?.stringValue else { return }
                targetGone(targetId)
            default:
                break
            }
        }

        /// Enables the Network domain on an auto-attached session (for cancellations), then lets it run.
        private func prepare(_ attached: CDP.AttachedToTarget) {
            let connection = self.connection
            let size = configuration.networkBufferSize
            Task {
                if ["page", "iframe", "service_worker", "worker", "shared_worker"].contains(attached.targetInfo.type) {
                    _ = try? await connection.send(
                        "Network.enable",
                        .object(["maxTotalBufferSize": .int(size), "maxResourceBufferSize": .int(size)]),
                        sessionId: attached.sessionId)
                }
                if attached.waitingForDebugger {
                    _ = try? await connection.send("Runtime.runIfWaitingForDebugger", sessionId: attached.sessionId)
                }
            }
        }

        private func targetGone(_ targetId: String) {
            let ids = state.withLock { state in
                state.inflight.filter { $0.value.frameId == targetId }.map(\.key)
            }
            for id in ids { stopRequest(id, reason: .pageClosed, tellChromium: false) }
        }

        /// Stops every request in flight, then ends the record sequences.
        private func connectionClosed() {
            let ids = state.withLock { Array($0.inflight.keys) }
            for id in ids { stopRequest(id, reason: .disconnected, tellChromium: false) }
            recordFeed.finish()
        }
    }
#endif
