// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import Dispatch
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import Testing

    @testable import SchemeKitWebKitGTK

    /// Request bodies are read as a bounded buffer that respects stops and a size limit: a slow
    /// handler pauses the read, a stop ends it, a body past the limit fails naming the setting, and a
    /// normal POST body still arrives byte for byte. Before, the reader read every body to its end
    /// into an unbounded stream, whatever the handler did.
    @Suite(.serialized, .timeLimit(.minutes(3)))
    struct RequestBodyTests {
        /// A `GMemoryInputStream` of `size` bytes (byte `i` is `i % 251`) on the main context, with a
        /// reference for the reader and one for the test (released by ``position(of:on:release:)``).
        static func memoryStream(size: Int, on executor: GLibExecutor) async throws -> UInt {
            try await executor.run {
                let data = g_malloc(gsize(max(size, 1)))!.assumingMemoryBound(to: UInt8.self)
                for index in 0..<size { data[index] = UInt8(index % 251) }
                let stream = g_memory_input_stream_new_from_data(data, gssize(size), g_free)!
                g_object_ref(UnsafeMutableRawPointer(stream))
                return UInt(bitPattern: stream)
            }
        }

        /// How far the stream has been read.
        static func position(of address: UInt, on executor: GLibExecutor, release: Bool = false) async throws -> Int {
            try await executor.run {
                let stream = UnsafeMutableRawPointer(bitPattern: address)!
                let position = g_seekable_tell(OpaquePointer(stream))
                if release { g_object_unref(stream) }
                return Int(position)
            }
        }

        /// A reader of the stream at `address`, started on the main context.
        static func reader(
            _ address: UInt, on executor: GLibExecutor, limit: Int = 32 << 20
        ) async throws -> RequestBodyReader {
            try await executor.run {
                let stream = UnsafeMutableRawPointer(bitPattern: address)!.assumingMemoryBound(to: GInputStream.self)
                let reader = RequestBodyReader(stream, executor: executor, limit: limit)
                reader.start()
                return reader
            }
        }

        static func expected(_ size: Int) -> Data { Data((0..<size).map { UInt8($0 % 251) }) }

        /// A handler that takes one chunk and then waits holds the read to the buffer's capacity (a
        /// bounded buffer suspends its producer); once it reads on, the whole body arrives in order.
        @Test func aSlowConsumerPausesTheRead() async throws {
            let executor = try WebKitHarness.get().glib.executor
            let size = 4 << 20
            let address = try await Self.memoryStream(size: size, on: executor)
            let reader = try await Self.reader(address, on: executor)
            var iterator = reader.body.makeAsyncIterator()
            var received = try await iterator.next() ?? Data()
            // The reader fills its buffer and pauses: no read in flight, no room for another chunk.
            #expect(await eventually { reader.isWaitingForRoom }, "the read paused")
            let ahead = try await Self.position(of: address, on: executor)
            // What the handler took and a full buffer (whole 64 KiB chunks), not a byte more.
            #expect(
                ahead == received.count + reader.capacity,
                "read \(ahead) bytes for a handler that took \(received.count) (capacity \(reader.capacity))")
            while let chunk = try await iterator.next() { received.append(chunk) }
            #expect(received == Self.expected(size), "the body arrived byte for byte")
            _ = try await Self.position(of: address, on: executor, release: true)
        }

        /// A stop in the middle of a body (what the adapter does when the task ends or is stopped)
        /// cancels the read: the stream's position stops advancing short of the end, and a handler
        /// still reading gets `CancellationError`.
        @Test func aStopMidBodyStopsTheRead() async throws {
            let executor = try WebKitHarness.get().glib.executor
            let size = 8 << 20
            let address = try await Self.memoryStream(size: size, on: executor)
            let reader = try await Self.reader(address, on: executor)
            let consumed = Locked(0)
            // A reader that keeps going, slowly, in a task the stop does not cancel.
            let consumer = Task {
                do {
                    for try await chunk in reader.body {
                        consumed.withLock { $0 += chunk.count }
                        try? await Task.sleep(for: .milliseconds(5))  // a deliberately slow consumer
                    }
                    return "ended"
                } catch is CancellationError {
                    return "cancelled"
                } catch {
                    return "\(error)"
                }
            }
            #expect(await eventually { consumed.withLock { $0 } >= 256 << 10 })
            reader.stop()
            #expect(await consumer.value == "cancelled")
            // The read in flight at the stop has come back: nothing reads the stream any more.
            #expect(await eventually { reader.isFinished }, "the reader let go of the stream")
            let afterStop = try await Self.position(of: address, on: executor)
            let later = try await Self.position(of: address, on: executor, release: true)
            #expect(afterStop < size, "the read stopped short of the end (\(afterStop) of \(size) bytes)")
            #expect(later == afterStop, "nothing read after the stop (\(afterStop), then \(later))")
        }

        /// Cancelling the handler's task while it waits for a chunk stops the reader too.
        ///
        /// The wait is made certain: the GLib main context, where the reader's reads complete, is
        /// held by a job of the test, so a consumer that takes chunks as fast as they come empties
        /// the buffer and then waits in `next()`. (A cancel between two `next()` calls ends the
        /// body's sequence as a cancelled `AsyncThrowingStream(unfolding:)` does, without the reader
        /// hearing of it: the adapter stops the reader when the task ends.)
        @Test func cancellingTheConsumerStopsTheRead() async throws {
            let executor = try WebKitHarness.get().glib.executor
            let size = 8 << 20
            let address = try await Self.memoryStream(size: size, on: executor)
            let reader = try await Self.reader(address, on: executor)
            let release = DispatchSemaphore(value: 0)
            await withCheckedContinuation { (held: CheckedContinuation<Void, Never>) in
                executor.execute {
                    held.resume()
                    release.wait()  // holds the main context until the test lets go
                }
            }
            var released = false
            defer { if !released { release.signal() } }
            let consumer = Task {
                var count = 0
                for try await chunk in reader.body { count += chunk.count }
                return count
            }
            #expect(await eventually { reader.isConsumerWaiting }, "the consumer waits for a chunk")
            consumer.cancel()
            await #expect(throws: CancellationError.self) { _ = try await consumer.value }
            release.signal()
            released = true
            // The read queued or in flight at the cancel has come back: nothing reads the stream any more.
            #expect(await eventually { reader.isFinished }, "the reader let go of the stream")
            let afterStop = try await Self.position(of: address, on: executor)
            let later = try await Self.position(of: address, on: executor, release: true)
            #expect(afterStop < size && later == afterStop, "\(afterStop), then \(later) of \(size) bytes")
        }

        /// A body one byte past the limit fails with the typed error naming the setting, and the
        /// read stops there.
        @Test func aBodyPastTheLimitFailsNamingTheSetting() async throws {
            let executor = try WebKitHarness.get().glib.executor
            let limit = 1 << 20
            let address = try await Self.memoryStream(size: limit + 1, on: executor)
            let reader = try await Self.reader(address, on: executor, limit: limit)
            await #expect {
                _ = try await SchemeRequestBody.stream(reader.body).collect(upTo: 64 << 20)
            } throws: { error in
                guard let error = error as? EngineError else { return false }
                return error.code == .bodyTooLarge
                    && error.description.contains("maximumRequestBodySize") && error.description.contains("\(limit)")
            }
            let position = try await Self.position(of: address, on: executor, release: true)
            #expect(position <= limit + RequestBodyReader.chunkSize)
            // A body of exactly the limit is fine.
            let exact = try await Self.memoryStream(size: limit, on: executor)
            let whole = try await SchemeRequestBody.stream(Self.reader(exact, on: executor, limit: limit).body)
                .collect(upTo: 64 << 20)
            #expect(whole == Self.expected(limit))
            _ = try await Self.position(of: exact, on: executor, release: true)
        }

        /// The adapter's limit defaults to 32 MiB.
        @Test func theAdaptersLimitDefaultsTo32MiB() throws {
            #expect(try WebKitHarness.get().adapter.maximumRequestBodySize == 32 << 20)
        }

        /// A page's binary POST body (1 MiB and a bit, every byte value) reaches the handler byte for
        /// byte through the adapter.
        @Test func aPOSTBodyArrivesByteForByte() async throws {
            let harness = try WebKitHarness.get()
            try await tearingDown(try await harness.makeSession()) { session in
                try await withTimeLimit(.seconds(20), "loading the page") {
                    try await session.load("app://echo/page.html")
                }
                let result = try await withTimeLimit(.seconds(30), "posting the body") {
                    try await session.callAsyncFunction(
                        """
                        const bytes = new Uint8Array((1 << 20) + 12345);
                        for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + (i >> 8)) & 255;
                        const echoed = new Uint8Array(await (await fetch('/echo', {method: 'POST', body: bytes})).arrayBuffer());
                        if (echoed.length !== bytes.length) return 'length ' + echoed.length;
                        for (let i = 0; i < bytes.length; i++) if (echoed[i] !== bytes[i]) return 'byte ' + i;
                        return 'same';
                        """)
                }
                #expect(result == .string("same"))
                #expect(harness.echo.errors.isEmpty, "\(harness.echo.errors)")
            }
        }

        /// Destroying the view in the middle of a POST stops its task and the read of its body: work
        /// that still reads the body (in a task the stop does not cancel) gets `CancellationError`
        /// short of the end, instead of the whole body.
        @Test func aStopMidBodyStopsTheReadThroughTheAdapter() async throws {
            let harness = try WebKitHarness.get()
            try await tearingDown(try await harness.makeSession()) { session in
                try await withTimeLimit(.seconds(20), "loading the page") {
                    try await session.load("app://echo/page.html")
                }
                let size = 16 << 20
                _ = try await session.evaluate(
                    "fetch('/slowread', {method: 'POST', body: new Uint8Array(\(size))}).catch(() => {}); true")
                #expect(await eventually { harness.echo.slowRead.withLock { $0.bytes } >= 256 << 10 })
                await session.tearDown()
                #expect(await eventually { harness.echo.slowRead.withLock { $0.outcome } != nil })
                let (bytes, outcome) = harness.echo.slowRead.withLock { $0 }
                #expect(outcome == "cancelled", "the body's reader was stopped (\(outcome ?? "-"))")
                #expect(bytes < size, "read \(bytes) of \(size) bytes")
            }
        }

        /// A POST body past the adapter's ``WebKitSchemeAdapter/maximumRequestBodySize`` fails its
        /// task with the typed error (the handler sees it, the request fails in the page).
        @Test func aPOSTPastTheAdaptersLimitFailsTheTask() async throws {
            let harness = try WebKitHarness.get()
            let context = try await harness.limitedContext()
            try await tearingDown(
                try await WebViewSession.make(
                    executor: harness.glib.executor, blankURL: "app://echo/page.html", context: context)
            ) { session in
                try await withTimeLimit(.seconds(20), "loading the page") {
                    try await session.load("app://echo/page.html")
                }
                let errorsBefore = harness.echo.errors.count
                let statisticsBefore = try #require(harness.limitedAdapter).statistics
                let result = try await withTimeLimit(.seconds(30), "posting the body") {
                    try await session.callAsyncFunction(
                        """
                        const bytes = new Uint8Array(\(WebKitHarness.limitedBodySize) + 1);
                        return fetch('/echo', {method: 'POST', body: bytes}).then(r => 'status ' + r.status, e => e.name);
                        """)
                }
                #expect(result == .string("TypeError"), "the page saw the request fail")
                let errors = harness.echo.errors.dropFirst(errorsBefore)
                #expect(errors.count == 1)
                #expect(errors.first?.code == .bodyTooLarge, "\(errors)")
                #expect(errors.first?.description.contains("maximumRequestBodySize") == true)
                // The adapter counts it as the browsers do: failed, of which bodyTooLarge.
                let statistics = try #require(harness.limitedAdapter).statistics
                #expect(statistics.failed == statisticsBefore.failed + 1, "\(statistics)")
                #expect(statistics.bodyTooLarge == statisticsBefore.bodyTooLarge + 1, "\(statistics)")
            }
        }
    }
#endif
