#if Chromium || Firefox
    import NIOCore
    import NIOWebSocket

    /// The WebSocket end of the pipeline: hands each whole message up, answers pings and the
    /// peer's close, and reports the close once, with its reason.
    ///
    /// Used on its channel's event loop only.
    final class WebSocketClientHandler: ChannelInboundHandler {
        typealias InboundIn = WebSocketFrame
        typealias OutboundOut = WebSocketFrame

        private let maximumMessageSize: Int
        private let onMessage: @Sendable (ByteBuffer) -> Void
        private let onClose: @Sendable (WebSocketError) -> Void
        private var context: ChannelHandlerContext?
        private var sentClose = false
        private var reported = false
        private var reason: WebSocketError?

        init(
            maximumMessageSize: Int,
            onMessage: @escaping @Sendable (ByteBuffer) -> Void,
            onClose: @escaping @Sendable (WebSocketError) -> Void
        ) {
            self.maximumMessageSize = maximumMessageSize
            self.onMessage = onMessage
            self.onClose = onClose
        }

        func handlerAdded(context: ChannelHandlerContext) {
            self.context = context
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            self.context = nil
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = Self.unwrapInboundIn(data)
            switch frame.opcode {
            case .text, .binary:
                onMessage(frame.unmaskedData)
            case .ping:
                let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
                context.writeAndFlush(Self.wrapOutboundOut(pong), promise: nil)
            case .connectionClose:
                var data = frame.unmaskedData
                let code = data.readWebSocketErrorCode()
                if reason == nil {
                    let detail = code.map { " (close code \(UInt16(webSocketErrorCode: $0)))" } ?? ""
                    reason =
                        code == .messageTooLarge
                        ? WebSocketError(
                            .messageTooLarge,
                            "the browser closed the WebSocket: a message was over its own size limit\(detail)")
                        : WebSocketError(.closed, "the browser closed the WebSocket\(detail)")
                }
                sendClose(context: context, code: .normalClosure)
            default:
                break
            }
        }

        /// Protocol errors end the connection with the matching close code (this handler does what
        /// NIO's automatic error handling would, so that the reason is known before the close).
        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            var code = WebSocketErrorCode.protocolError
            switch error {
            case NIOWebSocketError.invalidFrameLength, NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
                code = .messageTooLarge
                if reason == nil {
                    reason = WebSocketError(
                        .messageTooLarge,
                        "the browser sent a message over the WebSocket's maximum message size of \(maximumMessageSize) bytes; raise the limit"
                    )
                }
            default:
                if reason == nil { reason = WebSocketError(.closed, "the WebSocket failed: \(error)") }
            }
            sendClose(context: context, code: code)
        }

        func channelInactive(context: ChannelHandlerContext) {
            report()
            context.fireChannelInactive()
        }

        /// Our side closes: a close frame (1000), then the connection.
        func closeNormally() {
            if reason == nil { reason = WebSocketError(.closed, "the WebSocket was closed") }
            guard let context else {
                report()
                return
            }
            sendClose(context: context, code: .normalClosure)
        }

        private func sendClose(context: ChannelHandlerContext, code: WebSocketErrorCode) {
            guard !sentClose else {
                context.close(promise: nil)
                return
            }
            sentClose = true
            var data = context.channel.allocator.buffer(capacity: 2)
            data.write(webSocketErrorCode: code)
            let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data)
            let bound = context.loopBound
            context.writeAndFlush(Self.wrapOutboundOut(frame)).whenComplete { _ in
                bound.value.close(promise: nil)
            }
        }

        private func report() {
            guard !reported else { return }
            reported = true
            onClose(reason ?? WebSocketError(.closed, "the browser closed the connection"))
        }
    }

    @available(*, unavailable)
    extension WebSocketClientHandler: Sendable {}
#endif
