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
    /// as the reader reads. Sits right behind the HTTP decoder, in front of NIO's pipelining
    /// handler: it sees every request as it is decoded (heads in) and every response's end (out),
    /// so ``inFlight`` counts requests decoded and not yet answered, pipelined ones included — what
    /// ``RepeatedRequestHandler`` needs to know before it answers a request itself (and then calls
    /// ``responded()``). Event-loop confined.
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
        /// When ``timer`` fires.
        private var timerDue: NIODeadline?
        /// When the connection closes unless a request head arrives first; `nil` while a request
        /// is being answered (or before the connection is active).
        private var deadline: NIODeadline?
        /// Requests whose head was decoded and whose response has not ended.
        private(set) var inFlight = 0
        /// Whether a request asked to switch protocols (`Upgrade`) or to tunnel (`CONNECT`): what
        /// the decoder does with the bytes after it is then not plain HTTP any more.
        private(set) var sawUpgrade = false
        private var context: ChannelHandlerContext?

        init(headTimeout: TimeAmount, idleTimeout: TimeAmount) {
            self.headTimeout = headTimeout
            self.idleTimeout = idleTimeout
        }

        func handlerAdded(context: ChannelHandlerContext) {
            self.context = context
            if context.channel.isActive { wait(headTimeout, context: context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            wait(headTimeout, context: context)
            context.fireChannelActive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            stop()
            self.context = nil
        }

        func channelInactive(context: ChannelHandlerContext) {
            stop()
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head(let head) = unwrapInboundIn(data) {
                if head.method == .CONNECT || head.headers.contains(name: "upgrade") { sawUpgrade = true }
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

        /// A response was written past the HTTP pipeline (a repeated request answered before
        /// decoding): the connection is idle again from now.
        func responded() {
            guard inFlight == 0, let context else { return }
            wait(idleTimeout, context: context)
        }

        /// Starts timing `timeout` from now. The pending timer stays when it fires no later than
        /// the new deadline (it then sleeps again); one due later (a head timeout longer than the
        /// idle timeout) is replaced.
        private func wait(_ timeout: TimeAmount, context: ChannelHandlerContext) {
            let due = NIODeadline.now() + timeout
            deadline = due
            if let timerDue, timerDue <= due { return }
            timer?.cancel()
            schedule(at: due, context: context)
        }

        private func schedule(at due: NIODeadline, context: ChannelHandlerContext) {
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            let loopBound = context.loopBound
            timerDue = due
            timer = context.eventLoop.scheduleTask(deadline: due) {
                handler.value.fire(context: loopBound.value)
            }
        }

        /// The timer fired: close when the deadline has passed, sleep again when it moved later,
        /// rest while a request is being answered (its end starts a new wait).
        private func fire(context: ChannelHandlerContext) {
            timer = nil
            timerDue = nil
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
            timerDue = nil
            deadline = nil
        }
    }
#endif
