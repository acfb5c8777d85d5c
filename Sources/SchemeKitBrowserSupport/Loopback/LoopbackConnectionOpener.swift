#if Chromium || Firefox
    import NIOCore
    import NIOHTTP1
    import NIOSSL

    /// The first bytes of a loopback origin connection: how the browser reached the origin.
    ///
    /// - Chromium, whose host resolver maps the origin's host to the listener, opens TLS at once
    ///   (the first byte is a TLS handshake record, `0x16`).
    /// - Firefox, whose proxy configuration sends the origin's host to the listener, first asks for
    ///   a tunnel: `CONNECT app.localhost:443 HTTP/1.1`. The tunnel is granted (`200`) only to a host
    ///   an adapter serves, on port 443; anything else gets `403` and the connection closes.
    ///
    /// Then TLS (the origin's identity) and HTTP/1.1 are set up after this handler, which leaves the
    /// pipeline, handing on what the browser sent after its `CONNECT`.
    final class LoopbackConnectionOpener: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        /// The most a `CONNECT` request may take before the connection is closed.
        static let maximumConnectRequest = 8 << 10

        private let server: LoopbackOriginServer
        private var received: ByteBuffer?

        init(server: LoopbackOriginServer) {
            self.server = server
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            if received == nil, bytes.readableBytesView.first == 0x16 {
                return open(context: context, handing: bytes)
            }
            if received == nil { received = bytes } else { received!.writeBuffer(&bytes) }
            guard let buffer = received else { return }
            let view = buffer.readableBytesView
            guard let end = view.firstRange(of: [13, 10, 13, 10]) else {
                if buffer.readableBytes > Self.maximumConnectRequest { refuse(context: context) }
                return
            }
            let headLength = end.upperBound - view.startIndex
            guard
                let line = buffer.getString(at: buffer.readerIndex, length: headLength)?.split(separator: "\r\n").first,
                let host = Self.tunnelHost(String(line)), server.route(forHost: host) != nil
            else { return refuse(context: context) }
            var rest = buffer
            rest.moveReaderIndex(forwardBy: headLength)
            received = nil
            context.writeAndFlush(
                wrapOutboundOut(
                    context.channel.allocator.buffer(string: "HTTP/1.1 200 Connection Established\r\n\r\n")),
                promise: nil)
            open(context: context, handing: rest)
        }

        /// The host a `CONNECT host:443 HTTP/1.x` request line asks for, lowercased; `nil` for any
        /// other request line (another method, another port, no host).
        static func tunnelHost(_ line: String) -> String? {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "CONNECT", parts[2].hasPrefix("HTTP/1."),
                let colon = parts[1].lastIndex(of: ":"), parts[1][parts[1].index(after: colon)...] == "443"
            else { return nil }
            let host = parts[1][..<colon].lowercased()
            return host.isEmpty ? nil : host
        }

        /// TLS and HTTP/1.1 after this handler, which leaves; `bytes` go on to TLS.
        private func open(context: ChannelHandlerContext, handing bytes: ByteBuffer) {
            do {
                let pipeline = context.pipeline.syncOperations
                try pipeline.addHandler(NIOSSLServerHandler(context: server.identity.context))
                try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                try pipeline.addHandler(LoopbackOriginHTTPHandler(server: server))
            } catch {
                return context.close(promise: nil)
            }
            if bytes.readableBytes > 0 { context.fireChannelRead(NIOAny(bytes)) }
            context.pipeline.syncOperations.removeHandler(self, promise: nil)
        }

        private func refuse(context: ChannelHandlerContext) {
            received = nil
            let answer = "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(string: answer))).whenComplete { _ in
                channel.close(promise: nil)
            }
        }
    }
#endif
