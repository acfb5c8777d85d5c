import Foundation
import SchemeKit
import SchemeKitTesting
import Synchronization

/// A value shared between a test and the handlers it drives (SchemeKit's lock, with a `value`).
final class Locked<Value: Sendable>: Sendable {
    private let storage: SchemeKit.Locked<Value>

    init(_ value: Value) { storage = SchemeKit.Locked(value) }

    var value: Value { storage.withLock { $0 } }

    @discardableResult
    func withLock<R: Sendable>(_ body: @Sendable (inout Value) -> R) -> R { storage.withLock { body(&$0) } }
}

/// A one-shot signal a test can await with a bound.
final class Signal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1)) }

    func fire() { continuation.yield(()) }

    /// Waits for the signal; returns `false` after `timeout` without it.
    func wait(timeout: Duration = TestTiming.scaled(.seconds(30))) async -> Bool {
        let stream = self.stream
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in stream { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: timeout)  // the deadline: catches a hang, cancelled once the signal came
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}

/// Runs `body`, failing with `TimeoutError` if it takes longer than `timeout` (the body must
/// honour cancellation).
func withTimeout<T: Sendable>(
    _ timeout: Duration = TestTiming.scaled(.seconds(20)), _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)  // the deadline: catches a hang, cancelled once `body` returned
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw TimeoutError() }
        return value
    }
}

struct TimeoutError: Error {}

/// An executor that holds jobs until the test releases them: the engine's main thread, paused.
final class GateExecutor: SchemeDeliveryQueue {
    private let jobs = Locked<[@Sendable () -> Void]>([])
    let submitted = Signal()

    func execute(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        submitted.fire()
    }

    var pending: Int { jobs.withLock { $0.count } }

    /// Runs every held job, in order.
    func release() {
        let held = jobs.withLock { jobs in
            defer { jobs = [] }
            return jobs
        }
        for job in held { job() }
    }
}
