// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server && os(Linux)
    import Foundation
    import Glibc
    import LoopbackTestSupport
    import SchemeServe
    import Testing

    /// Connections that say nothing, or drip a head, or sit idle, are closed in time; out of
    /// descriptors the server backs off instead of spinning and serves again as they free up.
    @Suite(.ownThread, .timeLimit(.minutes(2)))
    struct ServeTimeoutTests {
        /// Reads until the peer closes (`true`) or `seconds` pass (`false`), sending `drip` one
        /// byte at a time meanwhile, a byte every 100 ms.
        @available(*, noasync, message: "blocks its thread: call it inside onThread")
        static func closedByPeer(_ fd: Int32, within seconds: Double, dripping drip: String = "") -> Bool {
            let deadline = Date.now.addingTimeInterval(seconds)
            var pending = Array(drip.utf8)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while Date.now < deadline {
                if !pending.isEmpty {
                    _ = send(fd, [pending.removeFirst()], 1, Int32(MSG_NOSIGNAL))
                }
                var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&request, 1, 100) > 0 else { continue }
                let count = recv(fd, &buffer, buffer.count, 0)
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { return true }
            }
            return false
        }

        /// Whether the peer has closed `fd` (a read would return end of file now), without waiting.
        static func isClosedByPeer(_ fd: Int32) -> Bool {
            var byte: UInt8 = 0
            return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
        }

        /// How many descriptors process `pid` has open below `limit` (one it inherited may be above).
        static func openDescriptors(_ pid: pid_t, below limit: Int = 64) -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            return names.count { Int($0).map { $0 < limit } ?? false }
        }

        @Test func silentAndDrippingConnectionsAreClosed() async throws {
            try await TestServer.with(configure: {
                $0.headTimeout = .milliseconds(600)
            }) { server in
                let port = server.port
                try await withTimeout(seconds: 30) {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            let closed = try await onThread {
                                let silent = try RawHTTP.connect(port: port)
                                defer { close(silent) }
                                return Self.closedByPeer(silent, within: 5)
                            }
                            #expect(closed, "a connection that sends nothing")
                        }
                        group.addTask {
                            let closed = try await onThread {
                                let dripping = try RawHTTP.connect(port: port)
                                defer { close(dripping) }
                                let slow =
                                    "GET /index.html HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
                                    + String(repeating: "a", count: 40)
                                return Self.closedByPeer(dripping, within: 5, dripping: slow)
                            }
                            #expect(closed, "a head dripped byte by byte")
                        }
                        try await group.waitForAll()
                    }
                }
                // A request on time is answered as ever.
                #expect(try await RawHTTP.fetch(port: port, "/index.html").status == 200)
            }
        }

        /// The idle timeout on its own: the head timeout is left long, since a loaded machine
        /// (the thread-sanitizer run) once kept this client from sending its request for 600 ms
        /// after connecting, and the server rightly closed a connection that had said nothing.
        @Test func anIdleKeepAliveConnectionIsClosedAfterItsResponse() async throws {
            try await TestServer.with(configure: {
                $0.headTimeout = .seconds(30)
                $0.idleTimeout = .milliseconds(600)
            }) { server in
                let port = server.port
                let (answered, closed) = try await withTimeout(seconds: 30) {
                    try await onThread {
                        let idle = try RawHTTP.connect(port: port)
                        defer { close(idle) }
                        try RawHTTP.sendAll(idle, Data("GET /index.html HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
                        var buffer = [UInt8](repeating: 0, count: 65536)
                        let answered = recv(idle, &buffer, buffer.count, 0) > 0
                        return (answered, Self.closedByPeer(idle, within: 5))
                    }
                }
                #expect(answered, "the response came")
                #expect(closed, "then the idle keep-alive connection closed")
            }
        }

        /// With its default timeouts (30 s for a head) under `ulimit -n 128`, three hundred idle
        /// sockets exhaust the descriptors and keep the backlog full: the server pauses accepting
        /// instead of spinning on `accept` (`EMFILE`), under 5% of a core over 20 s, and serves a
        /// request as soon as some of the idle connections close.
        @Test func outOfDescriptorsTheServerBacksOffAndRecovers() async throws {
            let limit = 128
            let server = try ServeProcess([ServeProcessTests.sampleApp], fileLimit: limit)
            defer { server.stop() }
            let port = server.port
            let pid = server.process.processIdentifier
            let sockets = try await onThread {
                var sockets: [Int32] = []
                for _ in 0..<300 {
                    guard let fd = try? RawHTTP.connect(port: port, timeout: 2) else { break }
                    sockets.append(fd)
                }
                return sockets
            }
            var stillOpen = Set(sockets)
            defer { for fd in stillOpen { close(fd) } }
            #expect(sockets.count > 2 * limit, "more connections than the server has descriptors, twice over")
            // Out of descriptors: every one of its 128 is open (the next accept fails with EMFILE).
            #expect(await eventually { Self.openDescriptors(pid, below: limit) == limit })
            let before = try #require(server.cpuSeconds)
            try await Task.sleep(for: .seconds(20))  // the measurement window, not a wait for an event
            let used = try #require(server.cpuSeconds) - before
            #expect(used < 1.0, "no spinning on accept: \(used) s of CPU in 20 s (5% of a core is 1 s)")
            // The newest connections go (those in the backlog, and some the server holds); the
            // fifty oldest stay, idle, and a request gets in beside them.
            for fd in sockets.dropFirst(50) {
                close(fd)
                stillOpen.remove(fd)
            }
            #expect(await eventually { (try? await RawHTTP.fetch(port: port, "/index.html").status) == 200 })
            // Before their head timeout: the server let the request in because descriptors came
            // free, not because the timeout closed the idle connections it held.
            #expect(sockets.prefix(50).count(where: Self.isClosedByPeer) == 0, "the oldest are still open")
        }
    }
#endif
