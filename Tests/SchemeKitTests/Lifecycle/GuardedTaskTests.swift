import Foundation
import SchemeKit
import SchemeKitTesting
import Testing

/// The guarded lifecycle, driven through the real registry and `GuardedTask`.
struct GuardedTaskTests {
    private func registry(_ handler: some SchemeHandler) throws -> SchemeRegistry {
        let registry = SchemeRegistry()
        try registry.register(handler, for: "app")
        return registry
    }

    @Test func aCompleteResponseReachesTheEngineInOrder() async throws {
        let registry = try registry(
            ClosureHandler(name: "hello") { _, writer in
                try await writer.writeHead(SchemeResponse(mimeType: "text/plain", textEncodingName: "utf-8"))
                try await writer.write(Data("hel".utf8))
                try await writer.write(Data())  // ignored
                try await writer.write(Data("lo".utf8))
                try await writer.finish()
                return .handled
            })
        let sink = RecordingSink()
        let task = registry.task(for: try SchemeRequest("app://localhost/"), sink: sink)
        await task.run()
        #expect(sink.events.map(\.description) == ["head(200)", "data(3)", "data(2)", "finish"])
        #expect(sink.bodyString == "hello")
        #expect(sink.violations.isEmpty)
        #expect(task.respondingHandler == "hello")
        #expect(
            task.metrics
                == SchemeTaskMetrics(
                    started: 1, finished: 1, failed: 0, stopped: 0, writesDroppedAfterStop: 0, misuseErrors: 0))
        #expect(registry.metrics == task.metrics)
    }

    @Test(arguments: [
        ("body before head", SchemeTaskError.bodyBeforeHead),
        ("finish before head", .finishBeforeHead),
        ("second head", .duplicateHead),
        ("second finish", .alreadyCompleted),
        ("body after finish", .alreadyCompleted),
        ("fail after finish", .alreadyCompleted),
    ])
    func misuseThrowsATypedErrorIsCountedAndNeverReachesTheEngine(misuse: String, expected: SchemeTaskError)
        async throws
    {
        let thrown = Locked<[SchemeTaskError]>([])
        let registry = try registry(
            ClosureHandler { _, writer in
                func attempt(_ write: () async throws -> Void) async {
                    do { try await write() } catch let error as SchemeTaskError {
                        thrown.withLock { $0.append(error) }
                    } catch {}
                }
                switch misuse {
                case "body before head": await attempt { try await writer.write(Data("x".utf8)) }
                case "finish before head": await attempt { try await writer.finish() }
                default: break
                }
                try await writer.writeHead(SchemeResponse(mimeType: "text/plain"))
                if misuse == "second head" { await attempt { try await writer.writeHead(SchemeResponse()) } }
                try await writer.write(Data("ok".utf8))
                try await writer.finish()
                switch misuse {
                case "second finish": await attempt { try await writer.finish() }
                case "body after finish": await attempt { try await writer.write(Data("late".utf8)) }
                case "fail after finish": await attempt { try await writer.fail(InjectedError("late")) }
                default: break
                }
                return .handled
            })
        let sink = RecordingSink()
        let task = registry.task(for: try SchemeRequest("app://localhost/"), sink: sink)
        await task.run()
        #expect(thrown.value == [expected])
        #expect(sink.events.map(\.description) == ["head(200)", "data(2)", "finish"])
        #expect(sink.violations.isEmpty)
        #expect(task.metrics.misuseErrors == 1)
        #expect(task.metrics.finished == 1)
        #expect(registry.metrics.misuseErrors == 1)
        #expect(!expected.description.isEmpty)
    }

    @Test func writesAfterStopAreDroppedCountedAndThrowCancellation() async throws {
        let afterStop = Locked<[String]>([])
        let stopped = Signal()
        let resume = Signal()
        let registry = try registry(
            ClosureHandler { _, writer in
                try await writer.writeHead(SchemeResponse(mimeType: "text/plain"))
                stopped.fire()
                _ = await resume.wait()
                for attempt in ["body", "finish", "fail"] {
                    do {
                        switch attempt {
                        case "body": try await writer.write(Data("x".utf8))
                        case "finish": try await writer.finish()
                        default: try await writer.fail(InjectedError("x"))
                        }
                        afterStop.withLock { $0.append("\(attempt): no error") }
                    } catch is CancellationError {
                        afterStop.withLock { $0.append("\(attempt): cancelled") }
                    }
                }
                return .handled
            })
        let sink = RecordingSink()
        let task = registry.task(for: try SchemeRequest("app://localhost/"), sink: sink)
        try await withTimeout {
            async let run: Void = task.run()
            #expect(await stopped.wait())
            task.stop()
            #expect(task.isStopped)
            sink.markStopped()
            resume.fire()
            await run
        }
        #expect(afterStop.value == ["body: cancelled", "finish: cancelled", "fail: cancelled"])
        #expect(sink.events.map(\.description) == ["head(200)", "stopped"])
        #expect(sink.violations.isEmpty)
        #expect(
            task.metrics
                == SchemeTaskMetrics(
                    started: 1, finished: 0, failed: 0, stopped: 1, writesDroppedAfterStop: 3, misuseErrors: 0))
        task.stop()  // idempotent
        #expect(registry.metrics.stopped == 1)
    }

    @Test func stopCancelsTheHandlersSwiftTask() async throws {
        let cancelHandlerFired = Locked(0)
        let sawCancelled = Locked(false)
        let running = Signal()
        let registry = try registry(
            ClosureHandler { _, writer in
                try await writer.writeHead(SchemeResponse())
                await withTaskCancellationHandler {
                    running.fire()
                    // Waits for the stop; bounded by the test's timeout.
                    try? await Task.sleep(for: .seconds(3600))  // hangs until stopped (the cancellation ends it)
                    sawCancelled.withLock { $0 = Task.isCancelled }
                } onCancel: {
                    cancelHandlerFired.withLock { $0 += 1 }
                }
                return .handled
            })
        let sink = RecordingSink()
        let task = registry.task(for: try SchemeRequest("app://localhost/"), sink: sink)
        try await withTimeout {
            let runner = Task { await task.run() }
            #expect(await running.wait())
            task.stop()
            await runner.value
        }
        #expect(cancelHandlerFired.value == 1)
        #expect(sawCancelled.value)
        #expect(sink.terminalCount == 0)
        #expect(task.metrics.stopped == 1)
    }

    @Test func stopBeforeRunMeansTheHandlerNeverRuns() async throws {
        let counted = CountingHandler(StaticHandler("never"))
        let registry = try registry(counted)
        let sink = RecordingSink()
        let task = registry.task(for: try SchemeRequest("app://localhost/"), sink: sink)
        task.stop()
        await task.run()
        await task.run()
        #expect(counted.calls == 0)
        #expect(sink.events.isEmpty)
        #expect(task.metrics.stopped == 1)
        #expect(registry.metrics.live == 0)
    }

    @Test func runHappensOnce() async throws {
        let counted = CountingHandler(StaticHandler("once"))
        let registry = try registry(counted)
        let sink = RecordingSink()
        let task = registry.task(for: try SchemeRequest("app://localhost/"), sink: sink)
        await task.run()
        await task.run()
        #expect(counted.calls == 1)
        #expect(sink.terminalCount == 1)
    }

    enum Ending: String, CaseIterable, Sendable {
        case headThenReturn, returnWithoutHead, throwBeforeHead, throwAfterHead, passWithoutWriting, headThenPass
    }

    @Test(arguments: Ending.allCases)
    func aHandlerThatReturnsWithoutFinishingGetsItsTaskCompleted(ending: Ending) async throws {
        let registry = try registry(
            ClosureHandler { _, writer in
                switch ending {
                case .headThenReturn, .headThenPass, .throwAfterHead:
                    try await writer.writeHead(SchemeResponse(mimeType: "text/plain"))
                    try await writer.write(Data("partial".utf8))
                default:
                    break
                }
                switch ending {
                case .throwBeforeHead, .throwAfterHead: throw InjectedError("boom")
                case .passWithoutWriting, .headThenPass: return .passed
                default: return .handled
                }
            })
        let sink = RecordingSink()
        let task = registry.task(for: try SchemeRequest("app://localhost/"), sink: sink)
        try await withTimeout { await task.run() }
        #expect(sink.terminalCount == 1)
        #expect(sink.violations.isEmpty)
        switch ending {
        case .headThenReturn, .headThenPass:
            #expect(sink.isFinished)
            #expect(sink.bodyString == "partial")
            #expect(task.metrics.finished == 1)
        case .returnWithoutHead:
            #expect(sink.failure == SchemeTaskError.noResponse.description)
            #expect(task.metrics.failed == 1)
        case .throwBeforeHead, .throwAfterHead:
            #expect(sink.failure == "boom")
            #expect(task.metrics.failed == 1)
        case .passWithoutWriting:
            #expect(sink.response?.status == .notFound)
            #expect(task.respondingHandler == "not-found")
            #expect(task.metrics.finished == 1)
        }
    }

    @Test func handlerFailingThroughTheWriterFailsTheTaskOnce() async throws {
        let registry = try registry(
            ClosureHandler { _, writer in
                try await writer.fail(InjectedError("no disk"))
                return .handled
            })
        let sink = RecordingSink()
        let task = registry.task(for: try SchemeRequest("app://localhost/"), sink: sink)
        await task.run()
        #expect(sink.events.map(\.description) == ["fail(no disk)"])
        #expect(task.metrics.failed == 1)
    }

    @Test func registryMetricsAreExactAcrossManyTasks() async throws {
        let registry = SchemeRegistry()
        try registry.register(StaticHandler("ok"), for: "app", pathPrefix: "/ok")
        try registry.register(ClosureHandler { _, _ in throw InjectedError("x") }, for: "app", pathPrefix: "/fail")
        try registry.register(HangingHandler(writesHead: true), for: "app", pathPrefix: "/hang")
        let engine = ScriptedEngine(registry: registry)
        for _ in 0..<5 { _ = try await engine.run("app://localhost/ok") }
        for _ in 0..<3 { _ = try await engine.run("app://localhost/fail") }
        for _ in 0..<2 { _ = try await engine.run("app://localhost/missing") }
        for _ in 0..<4 { _ = try await engine.run("app://localhost/hang", stoppingAt: .afterHead) }
        for _ in 0..<2 { _ = try await engine.run("app://localhost/ok", stoppingAt: .beforeStart) }
        let stoppedWriter = try await engine.run(
            "app://localhost/x",
            stoppingAt: .never)
        #expect(stoppedWriter.status == .notFound)
        let metrics = registry.metrics
        #expect(metrics.started == 17)
        #expect(metrics.finished == 5 + 3)  // 5 ok, 2 + 1 not found
        #expect(metrics.failed == 3)
        #expect(metrics.stopped == 6)
        #expect(metrics.live == 0)
        #expect(metrics.misuseErrors == 0)
        #expect(metrics.description.contains("live=0"))
    }
}
