import Foundation
import HTTPTypes
import LoopbackTestSupport
import SchemeKitTesting
import Testing

@testable import SchemeKit

/// A sink may stop its own task from inside one of its callbacks (an engine callback saying "the
/// view went away" reaches the sink first). The handler's cancellation handlers then run user
/// code: they must not run while the task's lock is held by the delivery, or any code they wait
/// on that touches the task (another thread asking `isStopped`, say) deadlocks.
struct StopInsideDeliveryTests {
    /// Set by the handler's cancellation handler: whether another thread could take the task's
    /// lock (read `isStopped`) while the handler was being cancelled.
    final class Probe: Sendable {
        let task = Locked<SchemeTask?>(nil)
        let lockWasFree = ConditionLock<Bool?>(nil)

        /// Asks another thread to read the task's state and waits for it. The wait is bounded only
        /// so a deadlock (the bug) fails the test instead of hanging it: 20 s, far beyond what a
        /// new thread takes to read a free lock on a loaded CI machine, even under the thread
        /// sanitizer (a 2 s bound once failed in CI).
        func check() {
            guard let task = task.withLock({ $0 }) else { return }
            let done = ConditionLock(false)
            Thread {
                _ = task.isStopped
                done.withLock { $0 = true }
            }.start()
            let free = done.wait(timeout: .seconds(20)) { $0 ? true : nil } ?? false
            lockWasFree.withLock { $0 = free }
        }
    }

    /// Writes a head, then waits to be cancelled; checks the task's lock from its cancellation
    /// handler.
    struct WaitsToBeCancelled: SchemeHandler {
        let probe: Probe

        func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
            // Once `start()` has recorded the handler's task, the stop from inside the head's
            // delivery cancels it itself (before, `start()` would cancel it when it found it stopped).
            #expect(await eventually { probe.task.withLock { $0 }?.storage.holdsHandlerTask ?? false })
            try await withTaskCancellationHandler {
                try await writer.writeHead(SchemeResponse(status: .ok))
                try await Task.sleep(for: .seconds(30))  // hangs until stopped
            } onCancel: {
                probe.check()
            }
            return .handled
        }
    }

    /// Stops its task when the head arrives.
    struct StoppingSink: SchemeTaskSink {
        let task: SchemeTask
        func receive(_ response: SchemeResponse) { task.stop() }
        func receive(_ body: SchemeBody) {}
        func finish() {}
        func fail(_ error: any Error) {}
    }

    @Test func cancellationHandlersRunOutsideTheTasksLock() async throws {
        let probe = Probe()
        let registry = SchemeRegistry()
        try registry.register(WaitsToBeCancelled(probe: probe), for: "app")
        let task = registry.task(for: try SchemeRequest("app://localhost/")) { StoppingSink(task: $0) }
        probe.task.withLock { $0 = task }
        task.start()
        let free = try await onThread { probe.lockWasFree.wait(timeout: .seconds(60)) { $0 } }
        #expect(free == true, "the cancellation handler ran with the task's lock free")
        await task.waitForCompletion()
        #expect(task.isStopped)
        #expect(task.metrics.stopped == 1)
    }
}

/// Runs blocking `work` on a thread of its own, off the two-thread concurrency pool.
private func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
