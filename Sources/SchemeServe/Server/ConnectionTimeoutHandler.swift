// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import NIOCore
    import NIOHTTP1

    /// Closes a connection that does not send a complete request head in time: within
    /// ``headTimeout`` of opening, and within ``idleTimeout`` of the end of each response (an idle
    /// keep-alive connection, or a client dripping the next head a byte at a time). nginx's
    /// `client_header_timeout` and `keepalive_timeout`; without them a thousand sockets that say
    /// nothing exhaust the descriptors and every new request fails.
    ///
    /// While a request is being answered nothing is timed: a download to a slow reader runs as long
    /// as the reader reads. Sits after NIO's HTTP server pipeline handler, so it sees one request at
    /// a time (heads in, response ends out). Event-loop confined.
    ///
    /// One timer per connection, not one per request: a response's end only moves a deadline
    /// (a clock read), and the timer, when it fires early, sleeps again until the deadline. Re-arming
    /// a scheduled task for every keep-alive response cost 8% of the server's CPU on small files.
    final class ConnectionTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart
        typealias OutboundIn = HTTPServerResponsePart
        typealias OutboundOut = HTTPServerResponsePart

        let headTimeout: TimeAmount
        let idleTimeout: TimeAmount
        /// The timer, while one is scheduled; it fires at or before ``deadline``.
        private var timer: Scheduled<Void>?
        /// When the connection closes unless a request head arrives first; `nil` while a request
        /// is being answered (or before the connection is active).
        private var deadline: NIODeadline?
        /// Requests whose head arrived and whose response has not ended.
        private var inFlight = 0

        init(headTimeout: TimeAmount, idleTimeout: TimeAmount) {
            self.headTimeout = headTimeout
            self.idleTimeout = idleTimeout
        }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { wait(headTimeout, context: context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            wait(headTimeout, context: context)
            context.fireChannelActive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            stop()
        }

        func channelInactive(context: ChannelHandlerContext) {
            stop()
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head = unwrapInboundIn(data) {
                inFlight += 1
                deadline = nil  // the timer, if it fires meanwhile, finds nothing to time
            }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .end = unwrapOutboundIn(data) {
                inFlight = max(0, inFlight - 1)
                if inFlight == 0 { wait(idleTimeout, context: context) }
            }
            context.write(data, promise: promise)
        }

        /// Starts timing `timeout` from now; schedules the timer only when none is pending.
        private func wait(_ timeout: TimeAmount, context: ChannelHandlerContext) {
            let due = NIODeadline.now() + timeout
            deadline = due
            if timer == nil { schedule(at: due, context: context) }
        }

        private func schedule(at due: NIODeadline, context: ChannelHandlerContext) {
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            let loopBound = context.loopBound
            timer = context.eventLoop.scheduleTask(deadline: due) {
                handler.value.fire(context: loopBound.value)
            }
        }

        /// The timer fired: close when the deadline has passed, sleep again when it moved later,
        /// rest while a request is being answered (its end starts a new wait).
        private func fire(context: ChannelHandlerContext) {
            timer = nil
            guard let deadline else { return }
            if deadline <= NIODeadline.now() {
                self.deadline = nil
                context.close(promise: nil)
            } else {
                schedule(at: deadline, context: context)
            }
        }

        private func stop() {
            timer?.cancel()
            timer = nil
            deadline = nil
        }
    }
#endif
