// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import HTTPTypes
    public import Logging
    import NIOCore
    import NIOExtras
    import NIOHTTP1
    import NIOPosix
    public import SchemeKit
    import ServiceLifecycle
    import UnixSignals

    /// The schemeserve dev server: SwiftNIO's HTTP/1.1 pipeline listening on a loopback port, every
    /// request translated into an answer of a `SchemeRegistry` configured by ``ServeConfiguration``.
    ///
    /// ```swift
    /// var configuration = ServeConfiguration(root: URL(filePath: "Samples/app"))
    /// configuration.port = 0
    /// let server = try SchemeServer(configuration: configuration, logger: Logger(label: "serve"))
    /// try await server.run { address in print("listening on port \(address.port)") }
    /// ```
    ///
    /// Each connection is an engine adapter of its own: requests the handlers can answer at once
    /// (a cached small file, a 304, a 404) are answered on the connection's event loop; the rest run
    /// as `SchemeTask`s whose output streams back to it (see `SchemeRegistry.immediateResponse(for:)`).
    ///
    /// `run` returns after a graceful shutdown: on SIGINT or SIGTERM (or when the calling task is
    /// cancelled) the server stops accepting connections, lets in-flight responses finish for up to
    /// ``ServeConfiguration/shutdownGracePeriod`` (idle connections close at once), then closes what
    /// is left.
    public struct SchemeServer: Sendable {
        /// Where the server listens, known once it is bound.
        public struct BoundAddress: Sendable {
            /// The bind address.
            public let host: String
            /// The port (the real one when the configuration asked for 0).
            public let port: Int
        }

        /// The configuration.
        package let configuration: ServeConfiguration
        /// The registry requests are dispatched through.
        public let registry: SchemeRegistry
        private let logger: Logger
        private let accessLog: AccessLog?

        /// Creates a server; nothing listens until ``run(gracefulShutdownOnSignals:onReady:)``.
        ///
        /// The registry holds the chain `schemeserve` serves for `configuration`'s scheme (any
        /// host, every path): files under ``ServeConfiguration/root``, then the image cache and the
        /// ``ServeConfiguration/fallbackOrigin`` when set. To serve handlers of your own through the
        /// same server, register them on ``registry`` under a path prefix before calling `run`:
        ///
        /// ```swift
        /// let server = try SchemeServer(configuration: configuration, logger: logger)
        /// try server.registry.register(apiHandler, for: configuration.scheme, pathPrefix: "/api")
        /// ```
        ///
        /// - Parameters:
        ///   - configuration: What to serve and how.
        ///   - logger: Diagnostics (warnings, lifecycle).
        ///   - accessLogger: The access log's logger, or `nil` for no access log. Default: `logger`.
        /// - Throws: ``ServeError`` for an invalid configuration (not a directory, bad scheme,
        ///   unavailable option, ``ServeConfiguration/watch`` with a ``ServeConfiguration/rootProvider``,
        ///   a header rule for a field the server owns, see ``ServeConfiguration/headerRules``).
        public init(configuration: ServeConfiguration, logger: Logger, accessLogger: Logger?? = .none) throws {
            try self.init(
                configuration: configuration, factories: .standard, logger: logger, accessLogger: accessLogger)
        }

        /// Creates a server whose resource handlers come from `factories` (the CLI's HAR replay and
        /// recording, tests' hanging handlers).
        package init(
            configuration: ServeConfiguration,
            factories: ServeHandlerFactories,
            logger: Logger,
            accessLogger: Logger?? = .none
        ) throws {
            try configuration.validateHeaderRules()
            if configuration.watch, configuration.rootProvider != nil {
                throw ServeError.invalidOption(
                    "live reload (--watch) cannot watch a dynamic root such as a package store")
            }
            self.configuration = configuration
            self.registry = try ServeHandlerChainBuilder(configuration: configuration, factories: factories)
                .buildRegistry()
            self.logger = logger
            switch accessLogger {
            case .none: self.accessLog = AccessLog(logger: logger)
            case .some(.none): self.accessLog = nil
            case .some(.some(let access)): self.accessLog = AccessLog(logger: access)
            }
        }

        /// Runs the server until a shutdown signal or cancellation.
        ///
        /// - Parameters:
        ///   - signals: Whether SIGINT and SIGTERM start a graceful shutdown. Default: `true`.
        ///   - onReady: Called once, when the server listens, with the real address.
        /// - Throws: ``ServeError`` (not a usage error) when the address cannot be bound.
        public func run(
            gracefulShutdownOnSignals signals: Bool = true,
            onReady: @escaping @Sendable (BoundAddress) -> Void
        ) async throws {
            let requestGuard = RequestGuard(
                allowedHosts: configuration.allowedHosts, bindAddress: configuration.bindAddress)
            let shared = SchemeHTTPHandler.Shared(
                registry: registry,
                scheme: configuration.scheme.lowercased(),
                appHost: configuration.appHost.lowercased(),
                requestGuard: requestGuard,
                planner: ResponsePlanner(configuration: configuration),
                accessLog: accessLog)
            let liveReload =
                configuration.watch
                ? LiveReload(root: configuration.root, interval: configuration.watchInterval, logger: logger) : nil
            let http = HTTPListener(
                configuration: configuration, shared: shared, liveReload: liveReload, logger: logger, onReady: onReady)
            var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: http)]
            if let liveReload { services.append(.init(service: liveReload)) }
            var groupConfiguration = ServiceGroupConfiguration(
                services: services,
                gracefulShutdownSignals: signals ? [.sigterm, .sigint] : [],
                logger: logger
            )
            groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
            groupConfiguration.maximumCancellationDuration = Duration.seconds(5)
            let bind = configuration.bindAddress
            // Every request's line is out before `run` returns (the log writes from a thread of its own).
            defer { accessLog?.flush() }
            do {
                try await ServiceGroup(configuration: groupConfiguration).run()
            } catch let error as IOError {
                throw ServeError.bindFailed(address: bind, port: configuration.port, reason: Self.reason(error))
            } catch let error as SocketAddressError.UnknownHost {
                throw ServeError.bindFailed(
                    address: bind, port: configuration.port, reason: "unknown host (\(error.errorDescription))")
            } catch is SocketAddressError {
                throw ServeError.bindFailed(address: bind, port: configuration.port, reason: "not a usable address")
            } catch let error as ServiceGroupError {
                throw ServeError.bindFailed(address: bind, port: configuration.port, reason: "\(error)")
            }
        }

        private static func reason(_ error: IOError) -> String {
            switch error.errnoCode {
            case EADDRINUSE: "address already in use"
            case EADDRNOTAVAIL: "address not available"
            case EACCES: "permission denied"
            default: String(cString: strerror(error.errnoCode))
            }
        }
    }

    /// The listening socket and its connections, as a service: binds, serves until a graceful
    /// shutdown, then quiesces (idle connections close at once, busy ones after their response)
    /// and, if cancelled meanwhile (the grace period ran out), closes what is left.
    private struct HTTPListener: Service {
        let configuration: ServeConfiguration
        let shared: SchemeHTTPHandler.Shared
        let liveReload: LiveReload?
        let logger: Logger
        let onReady: @Sendable (SchemeServer.BoundAddress) -> Void

        func run() async throws {
            // SwiftNIO's shared group has one loop per core it counts; a group of our own when the
            // configuration names a count, or when the CPU affinity allows fewer cores than that.
            let usable = UsableCores.count
            let ownGroup = (configuration.eventLoopCount ?? (usable == System.coreCount ? nil : usable)).map {
                MultiThreadedEventLoopGroup(numberOfThreads: max(1, $0))
            }
            let group: any EventLoopGroup = ownGroup ?? MultiThreadedEventLoopGroup.singleton
            defer { if let ownGroup { ownGroup.shutdownGracefully { _ in } } }
            let quiescing = ServerQuiescingHelper(group: group)
            let backoff = DescriptorBackoffHandler.Signal()
            let connections = ConnectionSet(backoff: backoff)
            let shared = self.shared
            // The loops may be the shared group's, which outlive this server: their pipes go with it.
            defer { for yield in shared.yields.values { yield.close() } }
            let upgrader = liveReload.map { $0.makeUpgrader(requestGuard: shared.requestGuard) }
            let server = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 1024)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .serverChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        // Out of descriptors (EMFILE), accepting again at once would spin: pause
                        // accepting until a connection closes or a growing delay passes, serving
                        // the open connections meanwhile (NIO's AcceptBackoffHandler spins then).
                        try channel.pipeline.syncOperations.addHandler(
                            DescriptorBackoffHandler(signal: backoff, logger: logger))
                        try channel.pipeline.syncOperations.addHandler(
                            quiescing.makeServerChannelHandler(channel: channel))
                    }
                }
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        connections.add(channel)
                        let timeouts = ConnectionTimeoutHandler(
                            headTimeout: TimeAmount(configuration.headTimeout),
                            idleTimeout: TimeAmount(configuration.idleTimeout))
                        let encoded = shared.responseCaches.value(for: channel.eventLoop)
                        let repeats = RepeatedRequestHandler(
                            cache: encoded, accessLog: shared.accessLog, requests: timeouts)
                        let handler = SchemeHTTPHandler(
                            shared: shared, encoded: encoded, yield: shared.yields.value(for: channel.eventLoop),
                            repeats: repeats)
                        let closeAfterLastWrite = CloseAfterLastWrite()
                        let errors = ProtocolErrorResponder()
                        let bound = NIOLoopBound((handler, timeouts, repeats, errors), eventLoop: channel.eventLoop)
                        let upgrade: NIOHTTPServerUpgradeConfiguration? = upgrader.map { upgrader in
                            (
                                upgraders: [upgrader],
                                completionHandler: { context in
                                    // The connection is a WebSocket now: no more HTTP requests.
                                    let (handler, timeouts, repeats, errors) = bound.value
                                    let pipeline = context.pipeline.syncOperations
                                    _ = pipeline.removeHandler(handler)
                                    _ = pipeline.removeHandler(timeouts)
                                    _ = pipeline.removeHandler(repeats)
                                    _ = pipeline.removeHandler(errors)
                                    _ = pipeline.removeHandler(errors.witness)
                                }
                            )
                        }
                        // Outbound header validation off: header fields come from swift-http-types,
                        // which validates them, and values with CR, LF or NUL are dropped before.
                        let pipeline = channel.pipeline.syncOperations
                        try pipeline.configureHTTPServerPipeline(
                            withPipeliningAssistance: true, withServerUpgrade: upgrade, withErrorHandling: false,
                            withOutboundHeaderValidation: false)
                        // Where NIO's protocol error handler goes, and as it does, but 505 for an
                        // HTTP version the parser refuses.
                        let pipelining = try pipeline.handler(type: HTTPServerPipelineHandler.self)
                        try pipeline.addHandler(errors, position: .after(pipelining))
                        // Right behind the decoder: it counts every request decoded, pipelined ones
                        // included, for the timeouts and for `repeats`.
                        let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
                        try pipeline.addHandler(timeouts, position: .after(decoder))
                        try pipeline.addHandler(errors.witness, position: .before(decoder))
                        // In front of the decoder: a repeated request is answered before decoding.
                        try pipeline.addHandler(repeats, position: .first)
                        // Next to the socket, so it holds back the pipeline handler's quiescing close
                        // until the last response is on the socket.
                        try pipeline.addHandler(closeAfterLastWrite, position: .first)
                        try pipeline.addHandler(handler)
                    }
                }
                .bind(host: configuration.bindAddress, port: configuration.port)
                .get()
            onReady(
                SchemeServer.BoundAddress(host: configuration.bindAddress, port: server.localAddress?.port ?? 0))
            // Only once bound: an address that cannot be bound gets its one error line, not this first.
            if !configuration.bindsLoopbackOnly {
                logger.warning(
                    "binding \(configuration.bindAddress): the server is reachable from other machines; use --allowed-host for the names they use"
                )
            }

            do {
                try await gracefulShutdown()
            } catch {
                // Cancelled without a graceful shutdown: close everything now.
                server.close(promise: nil)
                connections.closeAll()
                return
            }
            let drained = group.next().makePromise(of: Void.self)
            quiescing.initiateShutdown(promise: drained)
            await withTaskCancellationHandler {
                _ = try? await drained.futureResult.get()
            } onCancel: {
                // The grace period is over: the service group cancels what still runs.
                connections.closeAll()
            }
        }
    }

    /// The open connections, so that a shutdown past its grace period can close them; each close
    /// tells the listening socket's back-off that a descriptor came free.
    private final class ConnectionSet: Sendable {
        private let channels = Locked<[ObjectIdentifier: any Channel]>([:])
        private let backoff: DescriptorBackoffHandler.Signal

        init(backoff: DescriptorBackoffHandler.Signal) {
            self.backoff = backoff
        }

        func add(_ channel: any Channel) {
            let id = ObjectIdentifier(channel)
            channels.withLock { $0[id] = channel }
            channel.closeFuture.whenComplete { [self] _ in
                _ = channels.withLock { $0.removeValue(forKey: id) }
                backoff.connectionClosed()
            }
        }

        /// Closes every connection now, whatever it still has to send.
        func closeAll() {
            for channel in channels.withLock({ Array($0.values) }) {
                channel.pipeline.triggerUserOutboundEvent(CloseAfterLastWrite.Force(), promise: nil)
                channel.close(promise: nil)
            }
        }
    }
#endif
