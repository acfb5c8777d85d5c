// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server && os(Linux)
    import Foundation
    import Glibc
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

        /// Under `ulimit -n 64`, a hundred idle sockets exhaust the descriptors: the server backs off
        /// (it used to spin a core on `accept`), closes them as they time out, and serves again.
        @Test func outOfDescriptorsTheServerBacksOffAndRecovers() async throws {
            let server = try ServeProcess(
                [ServeProcessTests.sampleApp, "--header-timeout", "1", "--idle-timeout", "1", "--event-loops", "1"],
                fileLimit: 64)
            defer { server.stop() }
            let port = server.port
            let sockets = try await onThread {
                var sockets: [Int32] = []
                for _ in 0..<100 {
                    guard let fd = try? RawHTTP.connect(port: port, timeout: 2) else { break }
                    sockets.append(fd)
                }
                return sockets
            }
            defer { for fd in sockets { close(fd) } }
            #expect(sockets.count > 64, "more connections than the server has descriptors")
            try await Task.sleep(for: .milliseconds(300))
            let before = try #require(server.cpuSeconds)
            try await Task.sleep(for: .seconds(1))
            let used = try #require(server.cpuSeconds) - before
            #expect(used < 0.5, "no spinning on accept: \(used) s of CPU in 1 s")
            // The idle ones time out, the backlog is accepted and times out too; then a request gets in.
            var status = 0
            let deadline = Date.now.addingTimeInterval(20)
            while status != 200, Date.now < deadline {
                status = (try? await RawHTTP.fetch(port: port, "/index.html").status) ?? 0
                if status != 200 { try await Task.sleep(for: .milliseconds(200)) }
            }
            #expect(status == 200)
        }
    }
#endif
