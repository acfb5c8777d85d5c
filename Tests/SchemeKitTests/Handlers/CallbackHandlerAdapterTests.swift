import Dispatch
import Foundation
import SchemeKit
import SchemeKitTesting
import Synchronization
import Testing

/// WKURLSchemeHandler-style handlers, through the adapter.
struct CallbackHandlerAdapterTests {
    /// A legacy handler answering from a background queue; it keeps writing after stop, as
    /// careless ported code does.
    final class LegacyHandler: CallbackSchemeHandler {
        let chunks: Int
        let starts = Atomic<Int>(0)
        let stops = Atomic<Int>(0)
        let tasks = Locked<[CallbackSchemeTask]>([])
        let started = Signal()
        let proceed = Signal()
        let done = Signal()

        init(chunks: Int) { self.chunks = chunks }

        func start(_ task: CallbackSchemeTask) {
            starts.add(1, ordering: .relaxed)
            tasks.withLock { $0.append(task) }
            let chunks = self.chunks
            DispatchQueue.global().async {
                task.didReceive(SchemeResponse(status: .ok, mimeType: "text/plain"))
                self.started.fire()
                Task {
                    _ = await self.proceed.wait(timeout: .milliseconds(chunks > 1 ? 2000 : 0))
                    for _ in 0..<chunks { task.didReceive(Data("x".utf8)) }
                    task.didFinish()
                    self.done.fire()
                }
            }
        }

        func stop(_ task: CallbackSchemeTask) {
            stops.add(1, ordering: .relaxed)
        }
    }

    @Test func callbacksAreRelayedInOrder() async throws {
        let legacy = LegacyHandler(chunks: 1)
        let engine = try ScriptedEngine(serving: CallbackHandlerAdapter(legacy))
        let result = try await engine.run("app://h/")
        #expect(result.events.map(\.description) == ["head(200)", "data(1)", "finish"])
        #expect(result.respondingHandler == "LegacyHandler")
        #expect(legacy.starts.load(ordering: .relaxed) == 1)
        #expect(legacy.stops.load(ordering: .relaxed) == 0)
    }

    @Test func stopCallsTheCallbacksStopOnceAndDropsLaterCalls() async throws {
        let legacy = LegacyHandler(chunks: 100)
        let engine = try ScriptedEngine(serving: CallbackHandlerAdapter(legacy))
        let result = try await engine.run("app://h/", stoppingAt: .afterHead)
        legacy.proceed.fire()
        #expect(await legacy.done.wait())  // the legacy code wrote 100 chunks and a finish after the stop
        let task = try #require(legacy.tasks.withLock { $0.first })
        #expect(task.isStopped)
        task.didReceive(Data("late".utf8))
        task.didFinish()
        task.didFailWithError(InjectedError("late"))
        #expect(legacy.stops.load(ordering: .relaxed) == 1)
        #expect(result.events.map(\.description) == ["head(200)", "stopped"])
        #expect(result.violations.isEmpty)
        #expect(result.metrics.stopped == 1)
        #expect(result.recording.violations.isEmpty)
    }

    @Test func aTaskStoppedBeforeItStartsIsNeverStartedNorStopped() async throws {
        let legacy = LegacyHandler(chunks: 1)
        let result = try await ScriptedEngine(serving: CallbackHandlerAdapter(legacy)).run(
            "app://h/", stoppingAt: .beforeStart)
        #expect(result.events.map(\.description) == ["stopped"])
        #expect(legacy.starts.load(ordering: .relaxed) == 0)
        #expect(legacy.stops.load(ordering: .relaxed) == 0)
    }

    @Test func callbackMisuseIsRejectedNotCrashed() async throws {
        struct Sloppy: CallbackSchemeHandler {
            func start(_ task: CallbackSchemeTask) {
                task.didReceive(Data("early".utf8))  // before the head
                task.didReceive(SchemeResponse(mimeType: "text/plain"))
                task.didReceive(SchemeResponse(mimeType: "text/plain"))  // second head
                task.didReceive(Data("ok".utf8))
                task.didFinish()
                task.didFinish()  // after the stream ended: dropped
            }
            func stop(_ task: CallbackSchemeTask) {}
        }
        let result = try await ScriptedEngine(serving: CallbackHandlerAdapter(Sloppy())).run("app://h/")
        #expect(result.events.map(\.description) == ["head(200)", "data(2)", "finish"])
        #expect(result.metrics.misuseErrors == 2)
        #expect(result.violations.isEmpty)
    }
}
