#if Chromium || Firefox || WebKitGTK
    import NIOCore

    /// One end of a TCP tunnel through the loopback origin (a `CONNECT` to a host no adapter serves,
    /// for an engine whose proxy setting covers every https host, WebKitGTK's): what one channel
    /// reads is written to its partner, reading stops while the partner cannot take more, an end of
    /// input is passed on as a half-close, and either side closing closes both.
    ///
    /// Both channels must be on the same event loop (the partner's calls are made from it).
    final class LoopbackTunnelHandler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        typealias OutboundIn = NIOAny
        typealias OutboundOut = NIOAny

        private var partner: LoopbackTunnelHandler?
        private var context: ChannelHandlerContext?
        /// A read was asked for while the partner could not take more.
        private var readPending = false

        private init() {}

        /// Two handlers, each the other's partner.
        static func pair() -> (LoopbackTunnelHandler, LoopbackTunnelHandler) {
            let first = LoopbackTunnelHandler()
            let second = LoopbackTunnelHandler()
            first.partner = second
            second.partner = first
            return (first, second)
        }

        func handlerAdded(context: ChannelHandlerContext) {
            self.context = context
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            self.context = nil
            partner = nil
        }

        // MARK: From the partner

        private func partnerWrite(_ data: NIOAny) {
            context?.write(data, promise: nil)
        }

        private func partnerFlush() {
            context?.flush()
        }

        private func partnerEndedInput() {
            context?.close(mode: .output, promise: nil)
        }

        private func partnerClosed() {
            context?.close(promise: nil)
        }

        private func partnerBecameWritable() {
            guard readPending else { return }
            readPending = false
            context?.read()
        }

        private var canTakeMore: Bool { context?.channel.isWritable ?? false }

        // MARK: Channel events

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            partner?.partnerWrite(data)
        }

        func channelReadComplete(context: ChannelHandlerContext) {
            partner?.partnerFlush()
        }

        func channelInactive(context: ChannelHandlerContext) {
            partner?.partnerClosed()
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let event = event as? ChannelEvent, case .inputClosed = event {
                partner?.partnerEndedInput()
            }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            partner?.partnerClosed()
            context.close(promise: nil)
        }

        func channelWritabilityChanged(context: ChannelHandlerContext) {
            if context.channel.isWritable { partner?.partnerBecameWritable() }
            context.fireChannelWritabilityChanged()
        }

        func read(context: ChannelHandlerContext) {
            if partner?.canTakeMore ?? false {
                context.read()
            } else {
                readPending = true
            }
        }
    }
#endif
