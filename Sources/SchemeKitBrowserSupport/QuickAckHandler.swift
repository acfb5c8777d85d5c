#if Chromium || Firefox
    import NIOCore

    #if canImport(Glibc)
        import Glibc
    #endif

    /// Acknowledges every segment from the browser at once (Linux `TCP_QUICKACK`, re-armed after
    /// each read: the kernel clears it on its own).
    ///
    /// Firefox's WebDriver BiDi server does not disable Nagle's algorithm, so a message it writes
    /// right after another small one waits until that one is acknowledged; with the peer's delayed
    /// acknowledgements (up to 40 ms on Linux) every `network.beforeRequestSent` that follows the
    /// answer to a `network.provideResponse` arrived 32–40 ms late (measured), where it arrives in
    /// under 1 ms with this handler. `TCP_NODELAY` on our side cannot help: the delay is Firefox's.
    final class QuickAckHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        func channelActive(context: ChannelHandlerContext) {
            rearm(context)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            rearm(context)
            context.fireChannelRead(data)
        }

        private func rearm(_ context: ChannelHandlerContext) {
            #if os(Linux)
                _ = try? context.channel.syncOptions?.setOption(
                    .tcpOption(NIOBSDSocket.Option(rawValue: TCP_QUICKACK)), value: 1)
            #endif
        }
    }

    @available(*, unavailable)
    extension QuickAckHandler: Sendable {}
#endif
