import Dispatch
import Foundation
import SchemeKit
import SchemeKitTesting
import Synchronization
import Testing

/// Delivery through an engine executor (a serial DispatchQueue, WebKit's main thread) and
/// back-pressure.
struct ExecutorDeliveryTests {
    @Test func deliveriesRunOnTheSinksExecutor() async throws {
        let queue = DispatchQueue(label: "engine")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let offQueue = Locked(0)
        final class QueueCheckingSink: SchemeTaskSink {
            let deliveryQueue: (any SchemeDeliveryQueue)?
            let check: @Sendable () -> Void
            init(queue: DispatchQueue, check: @escaping @Sendable () -> Void) {
                deliveryQueue = queue
                self.check = check
            }
            func receive(_ response: SchemeResponse) { check() }
            func receive(_ body: SchemeBody) { check() }
            func finish() { check() }
            func fail(_ error: any Error) { check() }
        }
        let sink = QueueCheckingSink(queue: queue) {
            if DispatchQueue.getSpecific(key: key) != true { offQueue.withLock { $0 += 1 } }
        }
        let registry = SchemeRegistry()
        try registry.register(StaticHandler(Data(count: 100), chunkSize: 10), for: "app")
        let task = registry.task(for: try SchemeRequest("app://h/"), sink: sink)
        try await withTimeout { await task.run() }
        #expect(offQueue.value == 0)
        #expect(task.metrics.finished == 1)
    }

    @Test func aStopBetweenAcceptAndDeliveryDropsTheWrite() async throws {
        let gate = GateExecutor()
        let sink = RecordingSink(deliveryQueue: gate)
        let headWritten = Locked<Result<Void, any Error>?>(nil)
        let registry = SchemeRegistry()
        try registry.register(
            ClosureHandler { _, writer in
                // Accepted by the state machine, then held by the paused executor: the stop
                // releases the writer at once (it does not wait for the queue to drain).
                do {
                    try await writer.writeHead(SchemeResponse())
                    headWritten.withLock { $0 = .success(()) }
                } catch {
                    headWritten.withLock { $0 = .failure(error) }
                    throw error
                }
                try await writer.write(Data("x".utf8))
                return .handled
            }, for: "app")
        let task = registry.task(for: try SchemeRequest("app://h/"), sink: sink)
        try await withTimeout {
            let runner = Task { await task.run() }
            #expect(await gate.submitted.wait())
            #expect(gate.pending == 1)
            task.stop()
            sink.markStopped()
            gate.release()  // the held head runs now, after the stop: it must be dropped
            await runner.value
        }
        #expect(sink.events.map(\.description) == ["stopped"])
        #expect(sink.violations.isEmpty)
        #expect(
            headWritten.value.map { if case .failure(let error) = $0 { error is CancellationError } else { false } }
                == true)
        #expect(task.metrics.writesDroppedAfterStop == 1)  // the held head
        #expect(task.metrics.stopped == 1)
    }

    /// Writers racing from child tasks reach the engine in the order the task accepted them:
    /// every chunk before the finish, each child's chunks in its own order.
    @Test func concurrentWritersAreDeliveredInAcceptedOrder() async throws {
        let queue = DispatchQueue(label: "engine")
        let writers = 8
        let chunksPerWriter = 200
        let registry = SchemeRegistry()
        try registry.register(
            ClosureHandler { _, writer in
                try await writer.writeHead(SchemeResponse(mimeType: "application/octet-stream"))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for id in 0..<writers {
                        group.addTask {
                            for sequence in 0..<chunksPerWriter {
                                try await writer.write(Data([UInt8(id), UInt8(sequence % 256), UInt8(sequence / 256)]))
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                try await writer.finish()
                return .handled
            }, for: "app")
        for executor in [queue as (any SchemeDeliveryQueue)?, nil] {
            let sink = RecordingSink(deliveryQueue: executor)
            try await withTimeout { await registry.handle(try SchemeRequest("app://h/"), sink: sink) }
            #expect(sink.violations.isEmpty)
            #expect(sink.isFinished)
            var next = [Int](repeating: 0, count: writers)
            var outOfOrder = 0
            for chunk in sink.chunks {
                let bytes = [UInt8](chunk)
                let id = Int(bytes[0])
                if Int(bytes[1]) + Int(bytes[2]) * 256 != next[id] { outOfOrder += 1 }
                next[id] += 1
            }
            #expect(outOfOrder == 0)
            #expect(next == [Int](repeating: chunksPerWriter, count: writers))
        }
    }

    /// A finish written concurrently with body chunks never overtakes a chunk accepted before it.
    @Test func aFinishNeverOvertakesAnAcceptedChunk() async throws {
        let queue = DispatchQueue(label: "engine")
        let registry = SchemeRegistry()
        try registry.register(
            ClosureHandler { _, writer in
                try await writer.writeHead(SchemeResponse())
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            while (try? await writer.write(Data("b".utf8))) != nil {}
                        }
                    }
                    group.addTask {
                        await Task.yield()
                        try? await writer.finish()
                    }
                }
                return .handled
            }, for: "app")
        for _ in 0..<200 {
            let sink = RecordingSink(deliveryQueue: queue)
            try await withTimeout { await registry.handle(try SchemeRequest("app://h/"), sink: sink) }
            #expect(sink.violations.isEmpty)
            #expect(sink.terminalCount == 1)
        }
        // Writes after the finish were misuse, not drops: nothing was stopped.
        #expect(registry.metrics.writesDroppedAfterStop == 0)
        #expect(registry.metrics.finished == 200)
    }

    @Test func waitForCapacityHoldsTheWriterUntilTheEngineCatchesUp() async throws {
        final class SlowSink: SchemeTaskSink {
            let recording = RecordingSink()
            let waiting = Signal()
            private let permits: AsyncStream<Void>
            private let grant: AsyncStream<Void>.Continuation
            init() { (permits, grant) = AsyncStream.makeStream(of: Void.self) }
            func permit() { grant.yield(()) }
            func receive(_ response: SchemeResponse) { recording.receive(response) }
            func receive(_ body: SchemeBody) { recording.receive(body) }
            func finish() { recording.finish() }
            func fail(_ error: any Error) { recording.fail(error) }
            func waitForCapacity() async {
                waiting.fire()
                // Returns at the next permit, or at once when the task is cancelled (stopped).
                for await _ in permits { return }
            }
        }
        let sink = SlowSink()
        let registry = SchemeRegistry()
        try registry.register(StaticHandler(Data(count: 30), chunkSize: 10), for: "app")
        let task = registry.task(for: try SchemeRequest("app://h/"), sink: sink)
        try await withTimeout {
            let runner = Task { await task.run() }
            #expect(await sink.waiting.wait())
            #expect(sink.recording.chunks.count == 1)  // held after the first chunk
            sink.permit()
            #expect(await sink.waiting.wait())
            #expect(sink.recording.chunks.count == 2)
            // Stopping while the writer waits for capacity ends it promptly.
            task.stop()
            sink.recording.markStopped()
            await runner.value
        }
        #expect(sink.recording.chunks.count == 2)
        #expect(sink.recording.terminalCount == 0)
        #expect(sink.recording.violations.isEmpty)
        #expect(task.metrics.stopped == 1)
    }
}
