// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Logging
    import NIOCore
    import SchemeKit
    import Synchronization

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Stops accepting while the process is out of descriptors, without spinning: the listening
    /// socket's back-off (``DescriptorBackoff`` decides when).
    ///
    /// SwiftNIO's `AcceptBackoffHandler` delays the next `read()` after a failed `accept`, but an
    /// `accept` that fails before any connection was accepted in that read leaves the channel's
    /// read pending, so NIO keeps the listening socket registered for readability and never asks
    /// for that `read()`: the loop wakes at once for the connection still in the backlog and calls
    /// `accept4` (`EMFILE`) again, a whole core for as long as the descriptors stay taken. This
    /// handler turns the server channel's `autoRead` off instead, which takes the socket out of the
    /// event loop's interest set whatever the pending read, and turns it back on when the pause
    /// ends: after a delay that grows while `accept` keeps failing (10 ms doubling to 1 s), or
    /// at once when one of the server's connections closes (``Signal/connectionClosed()``).
    ///
    /// Out-of-descriptor errors stop here (they are expected, and handled); others go on. A
    /// warning is logged when accepting first pauses, then at most once a minute. Event-loop
    /// confined, like every channel handler; install it first on the server channel.
    final class DescriptorBackoffHandler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = any Channel
        typealias InboundOut = any Channel
        typealias OutboundIn = any Channel

        /// Tells the server channel that a descriptor came free, from any thread; costs one atomic
        /// load per closed connection while accepting is not paused.
        final class Signal: Sendable {
            fileprivate let paused = Atomic<Bool>(false)
            fileprivate let serverChannel = Locked<(any Channel)?>(nil)

            /// Creates a signal, not attached to a server channel yet.
            init() {}

            /// One of the server's connections closed: end a pause now.
            func connectionClosed() {
                guard paused.load(ordering: .relaxed), let channel = serverChannel.withLock({ $0 }) else { return }
                channel.pipeline.fireUserInboundEventTriggered(DescriptorFreed())
            }
        }

        /// The user inbound event ``Signal/connectionClosed()`` sends to the server channel.
        struct DescriptorFreed: Sendable {}

        private var state: DescriptorBackoff
        private let signal: Signal
        private let logger: Logger
        private var resumption: Scheduled<Void>?
        private var lastWarning: NIODeadline?
        /// Pauses since the last warning.
        private var pausesSinceWarning = 0

        /// Creates the handler for one server channel.
        init(signal: Signal, logger: Logger, backoff: DescriptorBackoff = DescriptorBackoff()) {
            self.signal = signal
            self.logger = logger
            self.state = backoff
        }

        func handlerAdded(context: ChannelHandlerContext) {
            signal.serverChannel.withLock { $0 = context.channel }
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            cancelResumption()
            signal.serverChannel.withLock { $0 = nil }
            if state.resume() { resumeAccepting(context) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            cancelResumption()
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            state.accepted()
            context.fireChannelRead(data)
        }

        func read(context: ChannelHandlerContext) {
            // While paused, a read would register the socket again: the resumption reads.
            guard !state.isPaused else { return }
            context.read()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            guard let ioError = error as? IOError, DescriptorBackoff.isExhaustion(errno: ioError.errnoCode) else {
                context.fireErrorCaught(error)
                return
            }
            guard case .pause(let delay, let first) = state.acceptFailed(errno: ioError.errnoCode) else { return }
            signal.paused.store(true, ordering: .relaxed)
            // Off the event loop's interest set until resumed (see the type's discussion).
            try? context.channel.syncOptions?.setOption(.autoRead, value: false)
            resumption = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay)) { [self] in
                resumption = nil
                if state.resume() { resumeAccepting(context) }
            }
            if first { warn(ioError) }
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            guard event is DescriptorFreed else {
                context.fireUserInboundEventTriggered(event)
                return
            }
            guard state.resume() else { return }
            cancelResumption()
            resumeAccepting(context)
        }

        private func resumeAccepting(_ context: ChannelHandlerContext) {
            signal.paused.store(false, ordering: .relaxed)
            guard context.channel.isActive else { return }
            try? context.channel.syncOptions?.setOption(.autoRead, value: true)
        }

        private func cancelResumption() {
            resumption?.cancel()
            resumption = nil
        }

        /// The first pause of an episode: a warning, at most once a minute.
        private func warn(_ error: IOError) {
            pausesSinceWarning += 1
            let now = NIODeadline.now()
            if let lastWarning, now - lastWarning < .minutes(1) { return }
            lastWarning = now
            var limit = rlimit()
            let soft = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? " (ulimit -n \(limit.rlim_cur))" : ""
            let times = pausesSinceWarning > 1 ? ", \(pausesSinceWarning) times since the last warning" : ""
            pausesSinceWarning = 0
            let reason = String(cString: strerror(error.errnoCode))
            logger.warning(
                "cannot accept connections: \(reason)\(soft)\(times); new connections wait in the backlog until one closes. Raise the descriptor limit, or lower --idle-timeout"
            )
        }
    }
#endif
