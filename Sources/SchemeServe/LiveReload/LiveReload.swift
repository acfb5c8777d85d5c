// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import HTTPTypes
    import HummingbirdWebSocket
    import Logging
    import NIOCore
    import ServiceLifecycle
    import Synchronization
    import SchemeKit

    /// Live reload: a polling watcher and the WebSocket clients it notifies.
    ///
    /// The watcher compares the modification times, sizes and names of every file under the root
    /// every ``ServeConfiguration/watchInterval`` (300 ms by default) — portable and good enough for
    /// a dev server's directory; it never follows symlinks out of the root. On a change every
    /// connected client gets the text message `reload`. Pages get the client through ``script``,
    /// which schemeserve injects before `</body>` in HTML responses only when `--watch` is on.
    final class LiveReload: Service, Sendable {
        /// The path the WebSocket listens on.
        static let path = "/__schemeserve/livereload"

        /// The script injected into HTML pages.
        static let script = """
            <script>(()=>{const u=(location.protocol==="https:"?"wss://":"ws://")+location.host+"\(path)";\
            const c=()=>{const s=new WebSocket(u);s.onmessage=(e)=>{if(e.data==="reload")location.reload()};\
            s.onclose=()=>setTimeout(c,1000)};c()})();</script>

            """

        private struct Client: Sendable {
            let send: @Sendable (String) async -> Void
        }

        private let root: URL
        private let interval: Duration
        private let logger: Logger
        private let clients = Locked<[UInt64: Client]>([:])
        private let nextID = Atomic<UInt64>(0)

        init(root: URL, interval: Duration, logger: Logger) {
            self.root = root
            self.interval = interval
            self.logger = logger
        }

        /// How many WebSocket clients are connected.
        var clientCount: Int { clients.withLock { $0.count } }

        /// Polls until graceful shutdown.
        func run() async throws {
            var previous = snapshot()
            while !Task.isShuttingDownGracefully, !Task.isCancelled {
                try? await Task.sleep(for: interval)
                let current = snapshot()
                if current != previous {
                    previous = current
                    logger.info("change detected: reloading \(clientCount) page(s)")
                    await broadcast("reload")
                }
            }
        }

        /// Sends `message` to every client.
        func broadcast(_ message: String) async {
            let targets = clients.withLock { Array($0.values) }
            for client in targets { await client.send(message) }
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

        /// The WebSocket upgrade decision: only `path`, only from an allowed `Origin`.
        func shouldUpgrade(
            _ head: HTTPRequest,
            requestGuard: RequestGuard
        ) -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
            guard head.path?.split(separator: "?").first.map(String.init) == Self.path,
                requestGuard.check(head) == nil,
                let origin = head.headerFields[.origin], let host = head.authority,
                Self.isSameOrigin(origin, host: host, requestGuard: requestGuard)
            else { return .dontUpgrade }
            return .upgrade([:]) { [self] inbound, outbound, _ in
                let id = nextID.add(1, ordering: .relaxed).newValue
                clients.withLock {
                    $0[id] = Client { message in try? await outbound.write(.text(message)) }
                }
                defer { _ = clients.withLock { $0.removeValue(forKey: id) } }
                for try await _ in inbound {}
            }
        }

        /// Whether `origin` is `http://<Host>` for the request's own, allowed `Host`.
        static func isSameOrigin(_ origin: String, host: String, requestGuard: RequestGuard) -> Bool {
            let lower = origin.lowercased()
            guard lower.hasPrefix("http://") else { return false }
            let authority = String(lower.dropFirst(7))
            return authority == host.lowercased() && requestGuard.isAllowed(host: authority)
        }
    }
#endif
