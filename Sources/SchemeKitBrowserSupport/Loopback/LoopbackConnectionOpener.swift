#if Chromium || Firefox || WebKitGTK
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import NIOSSL

    /// The first bytes of a loopback origin connection: how the browser reached the origin.
    ///
    /// - Chromium, whose host resolver maps the origin's host to the listener, opens TLS at once
    ///   (the first byte is a TLS handshake record, `0x16`).
    /// - Firefox and WebKitGTK, whose proxy configuration sends the origin's host to the listener,
    ///   first ask for a tunnel: `CONNECT app.localhost:443 HTTP/1.1`. The tunnel is granted (`200`)
    ///   to a host an adapter serves, on port 443. Any other host gets `403` and the connection
    ///   closes, unless the server tunnels other hosts (``LoopbackOriginServer/tunnelsOtherHosts``:
    ///   WebKitGTK's proxy covers every https host), which opens a plain TCP tunnel to it.
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
                let (host, port) = Self.tunnelTarget(String(line))
            else { return refuse(context: context) }
            var rest = buffer
            rest.moveReaderIndex(forwardBy: headLength)
            received = nil
            if port == 443, server.route(forHost: host) != nil {
                context.writeAndFlush(
                    wrapOutboundOut(context.channel.allocator.buffer(string: Self.established)), promise: nil)
                return open(context: context, handing: rest)
            }
            guard server.tunnelsOtherHosts else { return refuse(context: context) }
            tunnel(context: context, to: host, port: port, handing: rest)
        }

        static let established = "HTTP/1.1 200 Connection Established\r\n\r\n"

        /// The host (lowercased) and port a `CONNECT host:port HTTP/1.x` request line asks for; `nil`
        /// for any other request line (another method, no host, no port).
        static func tunnelTarget(_ line: String) -> (host: String, port: Int)? {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "CONNECT", parts[2].hasPrefix("HTTP/1."),
                let colon = parts[1].lastIndex(of: ":"), let port = Int(parts[1][parts[1].index(after: colon)...]),
                (1...65535).contains(port)
            else { return nil }
            var host = parts[1][..<colon].lowercased()
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            return host.isEmpty ? nil : (host, port)
        }

        /// A TCP tunnel to `host:port` (a host no adapter serves, for an engine whose proxy covers
        /// every https host): `200` once connected, then bytes both ways; `502` when it cannot connect.
        private func tunnel(context: ChannelHandlerContext, to host: String, port: Int, handing bytes: ByteBuffer) {
            let channel = context.channel
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            channel.setOption(.autoRead, value: false).whenComplete { _ in }
            ClientBootstrap(group: context.eventLoop)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelOption(.allowRemoteHalfClosure, value: true)
                .connect(host: host, port: port)
                .whenComplete { result in
                    guard case .success(let upstream) = result else {
                        let answer = "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        channel.writeAndFlush(channel.allocator.buffer(string: answer)).whenComplete { _ in
                            channel.close(promise: nil)
                        }
                        return
                    }
                    let (local, remote) = LoopbackTunnelHandler.pair()
                    do {
                        try upstream.pipeline.syncOperations.addHandler(remote)
                        channel.writeAndFlush(channel.allocator.buffer(string: Self.established), promise: nil)
                        if bytes.readableBytes > 0 { upstream.writeAndFlush(bytes, promise: nil) }
                        let pipeline = channel.pipeline.syncOperations
                        try pipeline.addHandler(local)
                        pipeline.removeHandler(handler.value, promise: nil)
                        channel.setOption(.autoRead, value: true).whenComplete { _ in }
                    } catch {
                        upstream.close(promise: nil)
                        channel.close(promise: nil)
                    }
                }
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
