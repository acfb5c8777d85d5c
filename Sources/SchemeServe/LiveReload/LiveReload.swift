// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import HTTPTypes
    import Logging
    import NIOCore
    import NIOHTTP1
    import NIOHTTPTypesHTTP1
    import NIOWebSocket
    import SchemeKit
    import ServiceLifecycle

    /// Live reload: a directory watcher and the WebSocket clients it notifies.
    ///
    /// On Linux the watcher is `inotify` on the root and every directory below it
    /// (``DirectoryWatcher``): a burst of changes is reported 15 ms after its last event. Elsewhere
    /// (or when `inotify` is unavailable) it compares the modification times, sizes and names of
    /// every file under the root every ``ServeConfiguration/watchInterval`` (300 ms by default); it
    /// never follows symlinks out of the root. On a change every
    /// connected client gets the text message `reload`. Pages get the client through ``script``,
    /// which schemeserve injects before `</body>` in HTML responses only when `--watch` is on. The
    /// WebSocket is SwiftNIO's (`NIOWebSocket`), upgraded from the same HTTP connections.
    final class LiveReload: Service, Sendable {
        /// The path the WebSocket listens on.
        static let path = "/__schemeserve/livereload"

        /// The script injected into HTML pages: reloads on `reload`, and reconnects every second
        /// when the connection is lost. A page whose connection was open, lost, then open again
        /// reloads too: the server was restarted, and files may have changed meanwhile.
        static let script = """
            <script>(()=>{const u=(location.protocol==="https:"?"wss://":"ws://")+location.host+"\(path)";\
            let l=false;const c=()=>{const s=new WebSocket(u);let o=false;\
            s.onopen=()=>{if(l)location.reload();o=true};\
            s.onmessage=(e)=>{if(e.data==="reload")location.reload()};\
            s.onclose=()=>{l=l||o;setTimeout(c,1000)}};c()})();</script>

            """

        private let root: URL
        private let interval: Duration
        private let logger: Logger
        private let clients = Locked<[ObjectIdentifier: any Channel]>([:])

        init(root: URL, interval: Duration, logger: Logger) {
            self.root = root
            self.interval = interval
            self.logger = logger
        }

        /// How many WebSocket clients are connected.
        var clientCount: Int { clients.withLock { $0.count } }

        /// Watches until graceful shutdown, then closes every client: with `inotify` where it is
        /// available (a change is reported within milliseconds), else by polling every
        /// ``ServeConfiguration/watchInterval``.
        func run() async throws {
            let watcher = DirectoryWatcher(root: root)
            if watcher.start(onChange: { [self] _ in reload() }) {
                try? await gracefulShutdown()
                watcher.stop()
            } else {
                var previous = snapshot()
                while !Task.isShuttingDownGracefully, !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    let current = snapshot()
                    if current != previous {
                        previous = current
                        reload()
                    }
                }
            }
            for channel in clients.withLock({ Array($0.values) }) { channel.close(promise: nil) }
        }

        private func reload() {
            logger.info("change detected: reloading \(clientCount) page(s)")
            broadcast("reload")
        }

        /// Sends `message` to every client.
        func broadcast(_ message: String) {
            for channel in clients.withLock({ Array($0.values) }) {
                let frame = WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: message))
                channel.writeAndFlush(frame, promise: nil)
            }
        }

        /// Names, sizes and modification times of every file under the root.
        func snapshot() -> [String: Int64] {
            var result: [String: Int64] = [:]
            let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey]
            guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys) else {
                return result
            }
            for case let url as URL in enumerator {
                guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else {
                    continue
                }
                let modified = Int64((values.contentModificationDate?.timeIntervalSince1970 ?? 0) * 1_000_000)
                result[url.path(percentEncoded: false)] = modified &* 31 &+ Int64(values.fileSize ?? 0)
            }
            return result
        }

        /// The WebSocket upgrader for the HTTP pipeline: only ``path``, only for an allowed `Host`
        /// and a same-origin `Origin`.
        func makeUpgrader(requestGuard: RequestGuard) -> NIOWebSocketServerUpgrader {
            NIOWebSocketServerUpgrader(
                maxFrameSize: 1 << 14,
                automaticErrorHandling: true,
                shouldUpgrade: { channel, head in
                    let allowed =
                        (try? HTTPRequest(head, secure: false, splitCookie: false))
                        .map { Self.shouldUpgrade($0, requestGuard: requestGuard) } ?? false
                    return channel.eventLoop.makeSucceededFuture(allowed ? HTTPHeaders() : nil)
                },
                upgradePipelineHandler: { [self] channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(LiveReloadSocketHandler())
                        add(channel)
                    }
                })
        }

        private func add(_ channel: any Channel) {
            let id = ObjectIdentifier(channel)
            clients.withLock { $0[id] = channel }
            channel.closeFuture.whenComplete { [self] _ in _ = clients.withLock { $0.removeValue(forKey: id) } }
        }

        /// The upgrade decision: only `path`, only from an allowed `Origin`.
        static func shouldUpgrade(_ head: HTTPRequest, requestGuard: RequestGuard) -> Bool {
            guard head.path?.split(separator: "?").first.map(String.init) == path,
                requestGuard.check(head) == nil,
                let origin = head.headerFields[.origin], let host = head.authority
            else { return false }
            return isSameOrigin(origin, host: host, requestGuard: requestGuard)
        }

        /// Whether `origin` is `http://<Host>` for the request's own, allowed `Host`.
        static func isSameOrigin(_ origin: String, host: String, requestGuard: RequestGuard) -> Bool {
            let lower = origin.lowercased()
            guard lower.hasPrefix("http://") else { return false }
            let authority = String(lower.dropFirst(7))
            return authority == host.lowercased() && requestGuard.isAllowed(host: authority)
        }
    }

    /// The server side of one live-reload WebSocket: answers pings and closes; what the client sends
    /// otherwise is ignored. Event-loop confined.
    final class LiveReloadSocketHandler: ChannelInboundHandler {
        typealias InboundIn = WebSocketFrame
        typealias OutboundOut = WebSocketFrame

        private var closing = false

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            switch frame.opcode {
            case .ping:
                let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
                context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
            case .connectionClose:
                guard !closing else {
                    context.close(promise: nil)
                    return
                }
                closing = true
                var data = frame.unmaskedData
                let code = data.readSlice(length: 2) ?? ByteBuffer()
                let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: code)
                let loopBound = context.loopBound
                context.writeAndFlush(wrapOutboundOut(close)).assumeIsolated().whenComplete { _ in
                    loopBound.value.close(promise: nil)
                }
            default:
                break
            }
        }
    }
#endif
