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
    final class ConnectionTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart
        typealias OutboundIn = HTTPServerResponsePart
        typealias OutboundOut = HTTPServerResponsePart

        let headTimeout: TimeAmount
        let idleTimeout: TimeAmount
        private var timer: Scheduled<Void>?
        /// Requests whose head arrived and whose response has not ended.
        private var inFlight = 0

        init(headTimeout: TimeAmount, idleTimeout: TimeAmount) {
            self.headTimeout = headTimeout
            self.idleTimeout = idleTimeout
        }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { arm(headTimeout, context: context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            arm(headTimeout, context: context)
            context.fireChannelActive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            disarm()
        }

        func channelInactive(context: ChannelHandlerContext) {
            disarm()
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head = unwrapInboundIn(data) {
                inFlight += 1
                disarm()
            }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .end = unwrapOutboundIn(data) {
                inFlight = max(0, inFlight - 1)
                if inFlight == 0 { arm(idleTimeout, context: context) }
            }
            context.write(data, promise: promise)
        }

        private func arm(_ timeout: TimeAmount, context: ChannelHandlerContext) {
            disarm()
            let channel = context.channel
            timer = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        }

        private func disarm() {
            timer?.cancel()
            timer = nil
        }
    }
#endif
