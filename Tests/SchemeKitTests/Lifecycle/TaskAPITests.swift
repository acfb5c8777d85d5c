import Foundation
import LoopbackTestSupport
import SchemeKit
import SchemeKitTesting
import Testing

/// The task API as an embedder meets it: running, stopping, waiting, sinks that stop their own
/// task, passed requests and collecting a response into memory.
struct TaskAPITests {
    private func registry(_ handler: some SchemeHandler) throws -> SchemeRegistry {
        let registry = SchemeRegistry()
        try registry.register(handler, for: "app")
        return registry
    }

    @Test func aStopNeverCancelsTheTaskThatRanIt() async throws {
        let hanging = HangingHandler(writesHead: true)
        let registry = try registry(hanging)
        let task = registry.task(for: try SchemeRequest("app://localhost/"), sink: RecordingSink())
        let stopper = Task {
            // Its head is written: the handler goes on to hang in its cancellation handler, so the
            // stop lands there (a stop during the head's write would fail the write instead).
            #expect(await eventually { task.respondingHandler != nil })
            task.stop()
        }
        await task.run()
        await stopper.value
        #expect(hanging.cancellations == 1)
        #expect(!Task.isCancelled)
        // The embedder's next cancellable step works: it would throw CancellationError if the stop
        // had cancelled this task.
        try Task.checkCancellation()
        #expect(registry.metrics.stopped == 1)
    }

    @Test func cancellingTheCallerStopsTheTask() async throws {
        let hanging = HangingHandler()
        let registry = try registry(hanging)
        let task = registry.task(for: try SchemeRequest("app://localhost/"), sink: RecordingSink())
        let runner = Task { await task.run() }
        #expect(await eventually { hanging.started == 1 })
        runner.cancel()
        await runner.value
        #expect(task.isStopped)
        #expect(hanging.returned == 1)
    }

    @Test func waitForCompletionReturnsOnceTheStoppedHandlerHasReturned() async throws {
        let hanging = HangingHandler(writesHead: true)
        let registry = try registry(hanging)
        let task = registry.task(for: try SchemeRequest("app://localhost/"), sink: RecordingSink())
        task.start()
        #expect(await eventually { hanging.started == 1 })
        task.stop()
        try await withTimeout { await task.waitForCompletion() }
        #expect(hanging.returned == 1)
        #expect(registry.metrics.live == 0)
    }

    @Test func waitForCompletionCoversFinishedAndNeverStartedTasks() async throws {
        let registry = try registry(StaticHandler(Data("hi".utf8)))
        let finished = registry.task(for: try SchemeRequest("app://localhost/"), sink: RecordingSink())
        finished.start()
        try await withTimeout { await finished.waitForCompletion() }
        #expect(finished.metrics.finished == 1)

        let neverRun = registry.task(for: try SchemeRequest("app://localhost/"), sink: RecordingSink())
        neverRun.stop()
        try await withTimeout { await neverRun.waitForCompletion() }
        neverRun.start()  // ignored: it was stopped first
        #expect(neverRun.metrics.stopped == 1)
    }

    /// A second `start()` (an adapter that starts a task from two code paths) is ignored: the
    /// first run delivers the whole answer, and waiting waits for it.
    @Test(arguments: [false, true]) func aSecondStartIsIgnoredAndTheFirstRunAnswers(immediately: Bool) async throws {
        let slow = ClosureHandler { _, writer in
            try await Task.sleep(for: .milliseconds(20))  // paces the handler: still running at the later starts
            try await writer.respond(.ok, body: Data("late".utf8))
            return .handled
        }
        let registry = try registry(slow)
        let sink = RecordingSink()
        let task = registry.task(for: try SchemeRequest("app://localhost/x"), sink: sink)
        task.start(immediately: immediately)
        task.start(immediately: immediately)
        task.start()
        await task.waitForCompletion()
        #expect(sink.response?.status == .ok)
        #expect(sink.bodyString == "late")
        #expect(sink.isFinished)
        #expect(sink.violations.isEmpty)
        #expect(registry.metrics.started == 1)
    }

    @Test func aSinkMadeForItsTaskCanStopIt() async throws {
        final class StopAfterHeadSink: SchemeTaskSink {
            let task: SchemeTask
            let recording = RecordingSink()
            init(task: SchemeTask) { self.task = task }
            func receive(_ response: SchemeResponse) {
                recording.receive(response)
                task.stop()  // from inside the task's own delivery
            }
            func receive(_ body: SchemeBody) { recording.receive(body) }
            func finish() { recording.finish() }
            func fail(_ error: any Error) { recording.fail(error) }
        }
        let registry = try registry(StaticHandler(Data(count: 4096), chunkSize: 1024))
        var made: StopAfterHeadSink?
        let task = registry.task(for: try SchemeRequest("app://localhost/")) { task in
            let sink = StopAfterHeadSink(task: task)
            made = sink
            return sink
        }
        await task.run()
        let sink = try #require(made)
        #expect(sink.recording.events.map(\.description) == ["head(200)"])
        #expect(task.metrics.stopped == 1)
    }

    @Test func theTaskLetsGoOfASinkThatHoldsIt() async throws {
        final class HoldingSink: SchemeTaskSink {
            let task: SchemeTask
            init(task: SchemeTask) { self.task = task }
            func receive(_ response: SchemeResponse) {}
            func receive(_ body: SchemeBody) {}
            func finish() {}
            func fail(_ error: any Error) {}
        }
        let registry = try registry(StaticHandler(Data("hi".utf8)))
        weak var weakSink: HoldingSink?
        do {
            let task = registry.task(for: try SchemeRequest("app://localhost/")) { task in
                let sink = HoldingSink(task: task)
                weakSink = sink
                return sink
            }
            await task.run()
        }
        #expect(weakSink == nil)
    }

    @Test func aSinkThatTakesPassedRequestsGetsThemInsteadOfA404() async throws {
        final class PassSink: SchemeTaskSink {
            let recording = RecordingSink()
            let passes = Locked(0)
            var receivesPassed: Bool { true }
            func passed() { passes.withLock { $0 += 1 } }
            func receive(_ response: SchemeResponse) { recording.receive(response) }
            func receive(_ body: SchemeBody) { recording.receive(body) }
            func finish() { recording.finish() }
            func fail(_ error: any Error) { recording.fail(error) }
        }
        let registry = try registry(ClosureHandler { _, _ in .passed })
        let sink = PassSink()
        let task = registry.task(for: try SchemeRequest("app://localhost/missing"), sink: sink)
        await task.run()
        #expect(sink.passes.value == 1)
        #expect(sink.recording.events.isEmpty)
        #expect(task.metrics.passed == 1)
        #expect(registry.metrics.live == 0)

        // A sink that does not take them gets the registry's 404, as before.
        let recording = RecordingSink()
        await registry.handle(try SchemeRequest("app://localhost/missing"), sink: recording)
        #expect(recording.response?.status == .notFound)
    }

    @Test func aWriteWaitingOnAQueueThatNeverDrainsIsReleasedByTheStop() async throws {
        let gate = GateExecutor()  // never released
        let registry = try registry(StaticHandler(Data("hi".utf8)))
        let task = registry.task(for: try SchemeRequest("app://localhost/"), sink: RecordingSink(deliveryQueue: gate))
        task.start()
        #expect(await gate.submitted.wait())
        task.stop()
        // The handler's head write was parked on the gate: the stop must resume it.
        try await withTimeout { await task.waitForCompletion() }
        #expect(task.metrics.stopped == 1)
    }

    @Test func cancellationHandlersDoNotRunUnderTheTasksLock() async throws {
        let shared = Locked<SchemeTask?>(nil)
        let reachedLock = Locked(false)
        let handler = ClosureHandler { _, writer in
            try await writer.writeHead(SchemeResponse(status: .ok))
            try await withTaskCancellationHandler {
                try await Task.sleep(for: .seconds(3600))  // hangs until stopped
            } onCancel: {
                // Another thread takes the task's lock while the handler is cancelled: this
                // deadlocks if the stop cancels while holding it. The wait is bounded only so the
                // bug fails the test instead of hanging it: 20 s, as a loaded thread-sanitizer run
                // once took over 2 s to read a free lock.
                let done = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    _ = shared.value?.metrics
                    reachedLock.withLock { $0 = true }
                    done.signal()
                }
                _ = done.wait(timeout: .now() + 20)
            }
            return .handled
        }
        let registry = try registry(handler)
        let task = registry.task(for: try SchemeRequest("app://localhost/"), sink: RecordingSink())
        shared.withLock { $0 = task }
        task.start()
        #expect(await eventually { task.respondingHandler != nil })
        task.stop()
        try await withTimeout { await task.waitForCompletion() }
        #expect(reachedLock.value)
    }

    @Test func responseCollectsTheWholeBodyThroughTheChain() async throws {
        let registry = try registry(StaticHandler(Data(repeating: 7, count: 10_000), chunkSize: 1000))
        let response = try await registry.response(for: try SchemeRequest("app://localhost/x.bin"))
        #expect(response.head.status == .ok)
        #expect(response.body == Data(repeating: 7, count: 10_000))

        let missing = SchemeRegistry()
        try missing.register(ClosureHandler { _, _ in .passed }, for: "app")
        let notFound = try await missing.response(for: try SchemeRequest("app://localhost/nope"))
        #expect(notFound.head.status == .notFound)
    }

    @Test func responseStopsAtTheLimitWithATypedError() async throws {
        let registry = try registry(StaticHandler(Data(count: 10_000), chunkSize: 1000))
        await #expect(throws: SchemeCollectedResponse.Error.bodyTooLarge(limit: 2500)) {
            try await registry.response(for: try SchemeRequest("app://localhost/x.bin"), limit: 2500)
        }
        #expect(registry.metrics.stopped == 1)
    }

    @Test func responseRethrowsTheHandlersFailure() async throws {
        struct Broken: Error, Equatable {}
        let registry = try registry(ClosureHandler { _, _ in throw Broken() })
        await #expect(throws: Broken.self) {
            try await registry.response(for: try SchemeRequest("app://localhost/"))
        }
    }
}
