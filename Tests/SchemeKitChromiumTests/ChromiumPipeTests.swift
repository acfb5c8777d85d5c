#if Chromium
    import CSchemeKitChromiumShims
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import Testing

    @testable import SchemeKitChromium
    import SchemeKitBrowserSupport

    /// The pipe's descriptor and its queued writes: no write reaches a descriptor after the pipe let go
    /// of it, even when the number is reused at once.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct ChromiumPipeTests {
        /// Runs blocking `work` on a thread of its own, never on the cooperative pool.
        static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
            try await withCheckedThrowingContinuation { continuation in
                Thread { continuation.resume(with: Result { try work() }) }.start()
            }
        }

        static func socketPair() -> (Int32, Int32) {
            var pair: [Int32] = [-1, -1]
            let made = pair.withUnsafeMutableBufferPointer { schemekit_socketpair_cloexec($0.baseAddress!) }
            precondition(made == 0)
            return (pair[0], pair[1])
        }

        /// Reads from `descriptor` until end of file; returns the byte count.
        static func drain(_ descriptor: Int32) -> Int {
            var total = 0
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { return total }
                total += got
            }
        }

        /// Bytes waiting to be read on `descriptor` now (non-blocking reads, which take them).
        static func available(on descriptor: Int32) -> Int {
            let flags = fcntl(descriptor, F_GETFL)
            _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
            var total = 0
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
                if got <= 0 { return total }
                total += got
            }
        }

        /// A write blocks (the peer reads nothing yet), more are queued behind it, and the pipe is
        /// released. A socket opened right after may get the pipe's descriptor number: none of the
        /// queued writes may land in it, and every one of them reaches the original peer.
        @Test func queuedWritesNeverReachAReusedDescriptor() async throws {
            let (ours, peer) = Self.socketPair()
            defer { close(peer) }
            let big = Data(count: 4 << 20)  // far more than a socket buffer: the first write blocks
            let small = Data(repeating: 0x61, count: 1000)
            let queued = 100
            let completions = Locked(0)
            do {
                let pipe = ChromiumPipe(descriptor: ours, format: .json, onMessage: { _ in }, onClose: { _ in })
                pipe.enqueue([big]) { _ in completions.withLock { $0 += 1 } }
                for _ in 0..<queued { pipe.enqueue([small]) { _ in completions.withLock { $0 += 1 } } }
            }
            // The pipe is gone (released at the end of the scope above). The first write is under
            // way, blocked: its first bytes wait at the peer, which reads nothing yet.
            #expect(await eventually { Self.waiting(on: peer) > 0 }, "the first write started")
            // Take the lowest free numbers, as any new file or socket would.
            let (reused, reusedPeer) = Self.socketPair()
            defer {
                close(reused)
                close(reusedPeer)
            }
            // Let the blocked write finish: read the original peer to its end. Every queued write
            // has then run (its completion called), so any stray bytes are at the reused peer now.
            let drained = try await Self.onThread { Self.drain(peer) }
            #expect(drained == big.count + queued * small.count)
            #expect(await eventually { completions.withLock { $0 } == queued + 1 })
            let strayBytes = Self.available(on: reusedPeer)
            #expect(strayBytes == 0, "queued writes went to descriptor \(reused), reused after the pipe (was \(ours))")
        }

        /// Bytes waiting to be read on `descriptor`, left there (`FIONREAD`).
        static func waiting(on descriptor: Int32) -> Int {
            var count: Int32 = 0
            let result = withUnsafeMutablePointer(to: &count) { ioctl(descriptor, UInt(FIONREAD), $0) }
            return result == 0 ? Int(count) : 0
        }

        /// A message from Chromium longer than the limit closes the connection with a typed error:
        /// the pending command fails with it, the connection is closed, nothing is buffered further.
        @Test(arguments: ChromiumWireFormat.allCases)
        func aMessageOverTheLimitClosesTheConnection(format: ChromiumWireFormat) async throws {
            let (ours, peer) = Self.socketPair()
            defer { close(peer) }
            let connection = ChromiumConnection(wireFormat: format)
            connection.attach(descriptor: ours, maximumMessageSize: 4096)
            let pending = Task { try await connection.send("Browser.getVersion") }
            let reply = format.frame(
                .object(["id": .int(1), "result": .object(["pad": .binary(Data(count: 8192))])]))
            let written = reply.withUnsafeBytes { write(peer, $0.baseAddress!, $0.count) }
            #expect(written == reply.count)
            await #expect {
                _ = try await pending.value
            } throws: { error in
                (error as? EngineError)?.code == .messageTooLarge
            }
            await connection.waitUntilClosed()
            #expect(connection.isClosed)
            await #expect(throws: EngineError.self) { try await connection.send("Browser.getVersion") }
        }

        /// An event sequence holds at most its limit unread: the oldest go, and are counted.
        @Test func anEventSequenceDropsItsOldestPastTheLimit() async throws {
            let (connection, _) = FakeChromiumTransport.connection()
            let events = connection.events(bufferLimit: 4)
            for index in 0..<10 {
                connection.receive(.object(["method": .string("Test.event\(index)"), "params": .object([:])]))
            }
            #expect(connection.droppedEvents == 6)
            connection.close()
            var methods: [String] = []
            for await event in events { methods.append(event.method) }
            #expect(methods == (6..<10).map { "Test.event\($0)" })
        }
    }
#endif
