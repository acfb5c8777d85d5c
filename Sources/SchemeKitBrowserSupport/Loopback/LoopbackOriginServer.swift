#if Chromium || Firefox || WebKitGTK
    import Foundation
    import NIOCore
    import NIOPosix
    import SchemeKit

    /// A browser's loopback https origin: virtual origins under `.localhost`, served to that
    /// browser as a real web server would serve them, from the adapters' registries.
    ///
    /// The browser reaches the listener (127.0.0.1, a free port) for every `https://*.localhost`
    /// URL: Chromium through its host resolver (``chromiumArguments``), Firefox through its proxy
    /// configuration (``proxyAutoConfigURL``, a `CONNECT` tunnel). Over TLS with a key made for
    /// this launch (``identity``), each HTTP/1.1 request goes to the registry of the adapter whose
    /// origin names its host, and the response goes back as the handler writes it: bodies stream,
    /// ranges are the handlers' own, and the browser keeps cookies, the Cache API, service and
    /// shared workers as on any https origin. No message of the browser's protocol is made per
    /// request.
    ///
    /// Only the browser may connect (``peers``): any other local process gets its connection closed
    /// before a byte is read. Closing the server closes the listener and every connection, and
    /// stops every request in flight.
    package final class LoopbackOriginServer: Sendable {
        /// The listener's port on 127.0.0.1.
        package let port: Int
        /// The TLS identity the browser is told to trust.
        package let identity: LoopbackOriginIdentity
        /// Which processes may connect.
        package let peers: LoopbackPeers
        /// Whether a `CONNECT` to a host no adapter serves opens a TCP tunnel to it (for an engine whose
        /// proxy setting covers every https host) instead of being refused.
        package let tunnelsOtherHosts: Bool
        private let listener: any Channel

        private struct Registered {
            var adapter: ObjectIdentifier
            var route: LoopbackOriginRoute
        }

        private struct State {
            var routes: [Registered] = []
            var exchanges: [ObjectIdentifier: LoopbackExchange] = [:]
            var sweep: RepeatedTask?
            var closed = false
        }

        private let state = Locked(State())

        private init(
            listener: any Channel, port: Int, identity: LoopbackOriginIdentity, peers: LoopbackPeers,
            tunnelsOtherHosts: Bool
        ) {
            self.listener = listener
            self.port = port
            self.identity = identity
            self.peers = peers
            self.tunnelsOtherHosts = tunnelsOtherHosts
        }

        /// Opens a listener on 127.0.0.1 with a new identity; connections are served once ``peers``
        /// names the browser.
        ///
        /// - Parameters:
        ///   - peers: Who may connect. Default: nobody until its browser is set.
        ///   - tunnelsOtherHosts: Open a TCP tunnel for a `CONNECT` to a host no adapter serves.
        ///     Default: `false` (refused).
        /// - Throws: what binding the socket or making the identity throws.
        package static func start(
            peers: LoopbackPeers = LoopbackPeers(), tunnelsOtherHosts: Bool = false
        ) async throws -> LoopbackOriginServer {
            let identity = try LoopbackOriginIdentity()
            let serverBox = ServerBox()
            let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelOption(.autoRead, value: false)
                .childChannelInitializer { channel in
                    guard let server = serverBox.server else { return channel.close() }
                    return server.admit(channel)
                }
                .bind(host: "127.0.0.1", port: 0).get()
            let server = LoopbackOriginServer(
                listener: listener, port: listener.localAddress?.port ?? 0, identity: identity, peers: peers,
                tunnelsOtherHosts: tunnelsOtherHosts)
            serverBox.server = server
            let sweep = listener.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) {
                [weak server] _ in server?.sweep()
            }
            server.state.withLock { $0.sweep = sweep }
            return server
        }

        /// The listener's server, set once it exists (the initializer runs only after).
        private final class ServerBox: Sendable {
            private let value = Locked<LoopbackOriginServer?>(nil)
            var server: LoopbackOriginServer? {
                get { value.withLock { $0 } }
                set { value.withLock { $0 = newValue } }
            }
        }

        // MARK: What the browser is told

        /// Chromium's switches: its host resolver sends every `*.localhost` host's port 443 to the
        /// listener, and a certificate with the identity's key is valid.
        package var chromiumArguments: [String] {
            [
                "--host-resolver-rules=MAP *.localhost:443 127.0.0.1:\(port), MAP localhost:443 127.0.0.1:\(port)",
                "--ignore-certificate-errors-spki-list=\(identity.publicKeyHash)",
            ]
        }

        /// A proxy auto-configuration script (a `data:` URL) that sends Firefox's https requests for
        /// `localhost` and `*.localhost` to the listener, and everything else direct.
        package var proxyAutoConfigURL: String {
            let script = """
                function FindProxyForURL(url, host) {
                  if (url.substring(0, 6) == "https:" && (host == "localhost" || dnsDomainIs(host, ".localhost")))
                    return "PROXY 127.0.0.1:\(port)";
                  return "DIRECT";
                }
                """
            return "data:application/x-ns-proxy-autoconfig;base64," + Data(script.utf8).base64EncodedString()
        }

        // MARK: Routes

        /// Serves `route`'s hosts for `adapter` (after any adapter already serving one of them).
        package func add(_ route: LoopbackOriginRoute, for adapter: ObjectIdentifier) {
            state.withLock { state in
                state.routes.removeAll { $0.adapter == adapter }
                state.routes.append(Registered(adapter: adapter, route: route))
            }
        }

        /// Stops serving `adapter`'s hosts; its requests in flight are stopped
        /// (`SchemeRequestRecord/StopReason/adapterStopped`) and their records published before
        /// this returns.
        package func remove(_ adapter: ObjectIdentifier) async {
            let open = state.withLock { state in
                state.routes.removeAll { $0.adapter == adapter }
                return state.exchanges.values.filter { $0.adapter == adapter }
            }
            for exchange in open { try? await exchange.stop(.adapterStopped).get() }
        }

        /// Stops serving `adapter`'s hosts at once, for an adapter that goes away without stopping:
        /// its requests in flight are stopped, and nothing counts them any more.
        package func forget(_ adapter: ObjectIdentifier) {
            let open = state.withLock { state in
                state.routes.removeAll { $0.adapter == adapter }
                return state.exchanges.values.filter { $0.adapter == adapter }
            }
            for exchange in open { exchange.stop(.adapterStopped) }
        }

        /// The route (and its adapter) serving `host`: the first added whose origins name it.
        func route(forHost host: String) -> (route: LoopbackOriginRoute, adapter: ObjectIdentifier)? {
            state.withLock { state in
                for registered in state.routes
                where registered.route.origins.contains(where: { $0.host.lowercased() == host }) {
                    return (registered.route, registered.adapter)
                }
                return nil
            }
        }

        // MARK: Connections and requests

        /// Serves a new connection once its peer is the browser; closes it otherwise.
        private func admit(_ channel: any Channel) -> EventLoopFuture<Void> {
            let peers = self.peers
            let peerPort = channel.remoteAddress?.port ?? -1
            let localPort = port
            return NIOThreadPool.singleton.runIfActive(eventLoop: channel.eventLoop) {
                peers.allows(peerPort: peerPort, localPort: localPort)
            }.flatMap { allowed in
                guard allowed, !self.state.withLock({ $0.closed }) else { return channel.close() }
                do {
                    try channel.pipeline.syncOperations.addHandler(LoopbackConnectionOpener(server: self))
                } catch {
                    return channel.close()
                }
                return channel.setOption(.autoRead, value: true)
            }
        }

        func began(_ exchange: LoopbackExchange) {
            let closed = state.withLock { state -> Bool in
                guard !state.closed else { return true }
                state.exchanges[ObjectIdentifier(exchange)] = exchange
                return false
            }
            if closed { exchange.stop(.disconnected) }
        }

        func ended(_ exchange: LoopbackExchange) {
            _ = state.withLock { $0.exchanges.removeValue(forKey: ObjectIdentifier(exchange)) }
        }

        /// Stops the requests whose timeout passed (one sweep a second for every request).
        private func sweep() {
            let now = NIODeadline.now()
            let late = state.withLock { state in
                state.exchanges.values.filter { $0.deadline.map { $0 <= now } ?? false }
            }
            for exchange in late { exchange.stop(.timedOut) }
        }

        /// Closes the listener and every connection; requests in flight are stopped
        /// (`SchemeRequestRecord/StopReason/disconnected`) and their records published first.
        package func close() async {
            let (open, sweep) = state.withLock { state in
                state.closed = true
                state.routes = []
                defer { state.sweep = nil }
                return (Array(state.exchanges.values), state.sweep)
            }
            sweep?.cancel()
            for exchange in open { try? await exchange.stop(.disconnected).get() }
            try? await listener.close()
        }
    }
#endif
