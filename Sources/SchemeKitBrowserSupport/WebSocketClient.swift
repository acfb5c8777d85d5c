#if Chromium || Firefox
    package import Foundation
    package import NIOCore
    import NIOHTTP1
    import NIOPosix
    import NIOWebSocket
    import SchemeKit

    /// A client WebSocket (RFC 6455) to a browser's automation endpoint, on SwiftNIO: a DevTools
    /// `ws://…/devtools/browser/<id>` or a WebDriver BiDi `ws://…/session`.
    ///
    /// Messages are whole text messages (fragments are joined before ``onMessage`` sees them);
    /// every message, in either direction, is at most ``maximumMessageSize`` bytes. A larger one
    /// from the peer closes the connection with close code 1009 and a ``WebSocketError`` naming
    /// the limit; a larger one of ours is refused by ``send(_:)`` and the connection stays up.
    ///
    /// Reads happen on one of SwiftNIO's event loops (the process-wide singleton group), so no
    /// thread of Swift's cooperative pool ever blocks on the socket. `onMessage` is called there,
    /// in order; `onClose` exactly once, last.
    package final class WebSocketClient: Sendable {
        /// The endpoint.
        package let url: URL
        /// The largest message either side may send, in bytes.
        package let maximumMessageSize: Int
        private let channel: any Channel
        private let handler: NIOLoopBound<WebSocketClientHandler>

        /// An upgraded connection: the channel and its WebSocket handler.
        private struct Upgraded: Sendable {
            var channel: any Channel
            var handler: NIOLoopBound<WebSocketClientHandler>
        }

        private init(url: URL, maximumMessageSize: Int, upgraded: Upgraded) {
            self.url = url
            self.maximumMessageSize = maximumMessageSize
            self.channel = upgraded.channel
            self.handler = upgraded.handler
        }

        /// The host, port and request target of a `ws://` URL.
        package static func endpoint(of url: URL) throws(WebSocketError) -> (host: String, port: Int, target: String) {
            guard let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss" else {
                throw WebSocketError(.unsupportedURL, "\(url.absoluteString) is not a ws:// URL")
            }
            guard scheme == "ws" else {
                throw WebSocketError(
                    .unsupportedURL,
                    "\(url.absoluteString): wss:// (TLS) is not supported; reach the endpoint over ws://, through a tunnel if it is remote"
                )
            }
            guard let host = url.host(percentEncoded: false), !host.isEmpty else {
                throw WebSocketError(.unsupportedURL, "\(url.absoluteString) has no host")
            }
            var target = url.path(percentEncoded: true)
            if target.isEmpty { target = "/" }
            if let query = url.query(percentEncoded: true) { target += "?\(query)" }
            return (host, url.port ?? 80, target)
        }

        /// Opens a WebSocket to `url`.
        ///
        /// - Parameters:
        ///   - url: A `ws://` URL (`wss://` is refused with ``WebSocketError/Code/unsupportedURL``).
        ///   - maximumMessageSize: The largest message either side may send, 1 byte to 4 GiB − 1.
        ///   - timeout: The most the TCP connection and the HTTP upgrade may take together.
        ///   - onMessage: Each message from the peer, on the connection's event loop.
        ///   - onClose: Called once when the connection has closed, with why.
        /// - Throws: ``WebSocketError`` (``WebSocketError/Code/connectFailed`` naming the URL).
        package static func connect(
            to url: URL,
            maximumMessageSize: Int,
            timeout: Duration,
            onMessage: @escaping @Sendable (ByteBuffer) -> Void,
            onClose: @escaping @Sendable (WebSocketError) -> Void
        ) async throws(WebSocketError) -> WebSocketClient {
            let (host, port, target) = try endpoint(of: url)
            let limit = min(max(maximumMessageSize, 1), Int(UInt32.max))
            let milliseconds = Int64(
                max(1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
            do {
                let upgraded = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connectTimeout(.milliseconds(milliseconds))
                    .channelOption(.socketOption(.tcp_nodelay), value: 1)
                    .connect(host: host, port: port) { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(QuickAckHandler())
                            return try configure(
                                channel, host: host, port: port, target: target, limit: limit,
                                onMessage: onMessage, onClose: onClose)
                        }
                    }
                let result = try await withDeadline(
                    timeout,
                    orThrow: {
                        WebSocketError(
                            .connectFailed, "no WebSocket upgrade from \(url.absoluteString) within \(timeout)")
                    }
                ) { try await upgraded.get() }
                guard let result else {
                    throw WebSocketError(
                        .connectFailed,
                        "\(url.absoluteString) answered the WebSocket upgrade with plain HTTP (is the path right? BiDi's is /session, DevTools' /devtools/browser/<id>)"
                    )
                }
                return WebSocketClient(url: url, maximumMessageSize: limit, upgraded: result)
            } catch let error as WebSocketError {
                throw error
            } catch {
                throw WebSocketError(.connectFailed, "cannot open a WebSocket to \(url.absoluteString): \(error)")
            }
        }

        /// Sets up the HTTP client pipeline with the WebSocket upgrade; the future gives the channel
        /// once upgraded, or `nil` when the server answered without upgrading.
        private static func configure(
            _ channel: any Channel, host: String, port: Int, target: String, limit: Int,
            onMessage: @escaping @Sendable (ByteBuffer) -> Void,
            onClose: @escaping @Sendable (WebSocketError) -> Void
        ) throws -> EventLoopFuture<Upgraded?> {
            let upgrader = NIOTypedWebSocketClientUpgrader<Upgraded?>(
                maxFrameSize: limit,
                enableAutomaticErrorHandling: false,  // WebSocketClientHandler answers protocol errors
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        // A message may come in fragments: joined here, up to the same limit.
                        try channel.pipeline.syncOperations.addHandler(
                            NIOWebSocketFrameAggregator(
                                minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: 1 << 20,
                                maxAccumulatedFrameSize: limit))
                        let handler = WebSocketClientHandler(
                            maximumMessageSize: limit, onMessage: onMessage, onClose: onClose)
                        try channel.pipeline.syncOperations.addHandler(handler)
                        return Upgraded(channel: channel, handler: NIOLoopBound(handler, eventLoop: channel.eventLoop))
                    }
                })
            var headers = HTTPHeaders()
            headers.add(name: "Host", value: port == 80 ? host : "\(host):\(port)")
            headers.add(name: "Content-Length", value: "0")
            let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
            let configuration = NIOTypedHTTPClientUpgradeConfiguration<Upgraded?>(
                upgradeRequestHead: head, upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.close(promise: nil)
                    return channel.eventLoop.makeSucceededFuture(nil)
                })
            return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                configuration: .init(upgradeConfiguration: configuration))
        }

        /// Sends one text message.
        ///
        /// - Throws: ``WebSocketError/Code/messageTooLarge`` (naming the limit) when `message` is
        ///   over ``maximumMessageSize``; ``WebSocketError/Code/closed`` when the connection is closed.
        ///   Nothing is sent then, and a refused message leaves the connection up.
        package func send(_ message: ByteBuffer) throws(WebSocketError) {
            guard message.readableBytes <= maximumMessageSize else {
                throw WebSocketError(
                    .messageTooLarge,
                    "a message of \(message.readableBytes) bytes is over the WebSocket's maximum message size of \(maximumMessageSize) bytes"
                )
            }
            guard channel.isActive else {
                throw WebSocketError(.closed, "the WebSocket to \(url.absoluteString) is closed")
            }
            let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: message)
            channel.writeAndFlush(frame, promise: nil)
        }

        /// Whether the connection is still open.
        package var isOpen: Bool { channel.isActive }

        /// Closes the connection with close code 1000; `onClose` follows. Idempotent.
        package func close() {
            let handler = self.handler
            channel.eventLoop.execute {
                handler.value.closeNormally()
            }
        }
    }
#endif
