// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import HTTPTypes
    import Hummingbird
    import HummingbirdCore
    import HummingbirdWebSocket
    public import Logging
    import NIOCore
    public import SchemeKit
    import ServiceLifecycle
    import UnixSignals

    /// The schemeserve dev server: Hummingbird listening on a loopback port, every request
    /// translated into a task of a ``SchemeRegistry`` configured by ``ServeConfiguration``.
    ///
    /// ```swift
    /// var configuration = ServeConfiguration(root: URL(filePath: "Samples/app"))
    /// configuration.port = 0
    /// let server = try SchemeServer(configuration: configuration, logger: Logger(label: "serve"))
    /// try await server.run { address in print("listening on port \(address.port)") }
    /// ```
    ///
    /// `run` returns after a graceful shutdown: on SIGINT or SIGTERM (or when the calling task is
    /// cancelled) the server stops accepting connections, lets in-flight responses finish for up to
    /// ``ServeConfiguration/shutdownGracePeriod``, then cancels what is left.
    public struct SchemeServer: Sendable {
        /// Where the server listens, known once it is bound.
        public struct BoundAddress: Sendable {
            /// The bind address.
            public let host: String
            /// The port (the real one when the configuration asked for 0).
            public let port: Int
        }

        /// The configuration.
        public let configuration: ServeConfiguration
        /// The registry requests are dispatched through.
        public let registry: SchemeRegistry
        private let logger: Logger
        private let accessLog: AccessLog?

        /// Creates a server; nothing listens until ``run(signals:onReady:)``.
        ///
        /// - Parameters:
        ///   - configuration: What to serve and how.
        ///   - factories: Where the resource handlers come from. Default: ``ServeHandlerFactories/standard``.
        ///   - logger: Diagnostics (warnings, lifecycle).
        ///   - accessLogger: The access log's logger, or `nil` for no access log. Default: `logger`.
        /// - Throws: ``ServeError`` for an invalid configuration (not a directory, bad scheme,
        ///   unavailable option, ``ServeConfiguration/watch`` with a ``ServeConfiguration/rootProvider``).
        public init(
            configuration: ServeConfiguration,
            factories: ServeHandlerFactories = .standard,
            logger: Logger,
            accessLogger: Logger?? = .none
        ) throws {
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
        ///   - signals: The signals that start a graceful shutdown. Default: SIGINT and SIGTERM.
        ///   - onReady: Called once, when the server listens, with the real address.
        /// - Throws: ``ServeError/bindFailed(address:port:reason:)`` when the address cannot be bound.
        public func run(
            gracefulShutdownOnSignals signals: Bool = true,
            onReady: @escaping @Sendable (BoundAddress) -> Void
        ) async throws {
            let responder = SchemeResponder(configuration: configuration, registry: registry, accessLog: accessLog)
            var services: [any Service] = []
            let server: HTTPServerBuilder
            if configuration.watch {
                let liveReload = LiveReload(
                    root: configuration.root, interval: configuration.watchInterval, logger: logger)
                services.append(liveReload)
                let requestGuard = RequestGuard(
                    allowedHosts: configuration.allowedHosts, bindAddress: configuration.bindAddress)
                server = .http1WebSocketUpgrade(
                    configuration: .init(http1: .init(additionalChannelHandlers: [CloseAfterLastWrite()]))
                ) { head, _, _ in
                    liveReload.shouldUpgrade(head, requestGuard: requestGuard)
                }
            } else {
                server = .http1(configuration: .init(additionalChannelHandlers: [CloseAfterLastWrite()]))
            }
            let bind = configuration.bindAddress
            let app = Application(
                responder: responder,
                server: server,
                configuration: ApplicationConfiguration(
                    address: .hostname(bind, port: configuration.port), serverName: nil),
                services: services,
                onServerRunning: { [logger, configuration] channel in
                    onReady(BoundAddress(host: bind, port: channel.localAddress?.port ?? 0))
                    // Only once bound: an address that cannot be bound gets its one error line, not this first.
                    if !configuration.bindsLoopbackOnly {
                        logger.warning(
                            "binding \(configuration.bindAddress): the server is reachable from other machines; use --allowed-host for the names they use"
                        )
                    }
                },
                logger: logger
            )
            var groupConfiguration = ServiceGroupConfiguration(
                services: [.init(service: app)],
                gracefulShutdownSignals: signals ? [.sigterm, .sigint] : [],
                logger: logger
            )
            groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
            groupConfiguration.maximumCancellationDuration = Duration.seconds(5)
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
#endif
