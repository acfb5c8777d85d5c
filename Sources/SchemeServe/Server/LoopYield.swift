// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import NIOCore
    import NIOPosix

    /// `close(2)`, where a method of the same name would shadow it.
    private func closeDescriptor(_ descriptor: CInt) {
        _ = close(descriptor)
    }

    /// Runs work after the event loop has polled its sockets again: how a connection with more to
    /// send gives the loop's other connections their turn.
    ///
    /// `EventLoop.execute` cannot do this: SwiftNIO runs queued tasks, including those queued while
    /// it runs them, until none is left, and only then polls. A response that re-queues itself after
    /// each megabyte keeps every read waiting until it is done. Measured with 8 connections pulling
    /// 10 MiB on one loop, a request read meanwhile waited 17.6 ms (p90) for its head to start;
    /// nginx, which posts such a write for after its next poll (`sendfile_max_chunk`), 0.0 ms.
    ///
    /// Here a byte written to a pipe whose read side is registered with the loop makes the next poll
    /// return at once, and the work waiting then runs as the pipe's read event, beside the other
    /// sockets' events. One piece of work runs per poll, first in line first: work that keeps its
    /// turn goes back to the front, other work to the back. So large responses take the loop in
    /// turns of several pieces each (nearly first come, first served), while the loop polls between
    /// any two pieces and small requests never wait for more than one.
    ///
    /// `@unchecked Sendable`: each instance is confined to its event loop (`PerEventLoop` hands a
    /// connection the one of its loop); its state is only touched there.
    final class LoopYield: @unchecked Sendable {
        private let eventLoop: any EventLoop
        /// Work waiting for the next poll, in order.
        private var waiting: [() -> Void] = []
        /// The pipe's write side, once its read side is registered with the loop; `-1` before that,
        /// when it could not be made, and after the loop closed it (then work runs as a task).
        private var signal: CInt = -1
        /// Succeeds when the pipe is registered with the loop (fails when it could not be).
        let registered: EventLoopFuture<Void>
        /// The pipe's read side as the loop's channel, once registered.
        private var channel: (any Channel)?

        /// Sets up the pipe on `eventLoop`; until it is registered, work waits as a plain task.
        ///
        /// - Precondition: Called on `eventLoop`.
        init(eventLoop: any EventLoop) {
            self.eventLoop = eventLoop
            let registration = eventLoop.makePromise(of: Void.self)
            registered = registration.futureResult
            var ends: [CInt] = [-1, -1]
            guard pipe(&ends) == 0 else {
                registration.fail(IOError(errnoCode: errno, reason: "pipe"))
                return
            }
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
            let (input, output) = (ends[0], ends[1])
            let bound = NIOLoopBound(self, eventLoop: eventLoop)
            NIOPipeBootstrap(group: eventLoop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(Wakeups(yield: bound.value))
                    }
                }
                .takingOwnershipOfDescriptor(input: input)
                .hop(to: eventLoop)
                .assumeIsolated()
                .whenComplete { result in
                    switch result {
                    case .success(let channel):
                        bound.value.signal = output
                        bound.value.channel = channel
                        registration.succeed()
                    case .failure(let error):
                        closeDescriptor(input)
                        closeDescriptor(output)
                        registration.fail(error)
                    }
                }
        }

        /// Runs `body` on the loop after a later poll (as a task when there is no pipe): the next
        /// one when `keepingTurn` (it goes first in line), else after the work already waiting.
        ///
        /// - Precondition: Called on the loop.
        func afterNextPoll(keepingTurn: Bool = false, _ body: @escaping () -> Void) {
            eventLoop.preconditionInEventLoop()
            guard signal >= 0 else {
                let bound = NIOLoopBound(body, eventLoop: eventLoop)
                eventLoop.execute { bound.value() }
                return
            }
            if waiting.isEmpty { wake() }
            if keepingTurn {
                waiting.insert(body, at: 0)
            } else {
                waiting.append(body)
            }
        }

        /// Makes the next poll return at once: one byte in the pipe (a full pipe already has one).
        private func wake() {
            var byte: UInt8 = 1
            _ = write(signal, &byte, 1)
        }

        /// Closes the pipe (from any thread): what waits runs, later work runs as tasks. For a loop
        /// that outlives the server, such as the shared group's.
        func close() {
            // The registration's callbacks run on the loop, after `channel` is set.
            registered.whenSuccess { [self] in
                channel?.close(promise: nil)
                channel = nil
            }
        }

        /// The pipe was read: runs the first work waiting; the rest waits for the polls after, one
        /// each, so that between two pieces of work the loop always polls.
        fileprivate func resume() {
            guard !waiting.isEmpty else { return }
            let body = waiting.removeFirst()
            if !waiting.isEmpty { wake() }
            body()
        }

        /// The loop closed the pipe: runs what waited, and later work as tasks.
        fileprivate func closed() {
            if signal >= 0 { closeDescriptor(signal) }
            signal = -1
            let due = waiting
            waiting = []
            for body in due { body() }
        }

        /// The pipe's read side in the loop's channel pipeline.
        private final class Wakeups: ChannelInboundHandler {
            typealias InboundIn = ByteBuffer
            private let yield: LoopYield

            init(yield: LoopYield) { self.yield = yield }

            func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

            func channelReadComplete(context: ChannelHandlerContext) { yield.resume() }

            func channelInactive(context: ChannelHandlerContext) { yield.closed() }
        }
    }
#endif
