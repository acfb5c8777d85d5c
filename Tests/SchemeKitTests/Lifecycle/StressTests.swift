import Dispatch
import Foundation
import GuardTestFixtures
import LoopbackTestSupport
import SchemeKit
import SchemeKitTesting
import Synchronization
import Testing

/// Many tasks, concurrent writers, stops at random moments from other threads.
///
/// Run it under the thread sanitizer: `swift test --sanitize=thread --filter Stress`. The task
/// count comes from `SCHEMEKIT_STRESS_TASKS`: 100,000 in `Scripts/test.sh` (which runs it alone,
/// and again under the thread sanitizer); 20,000 by default, so a plain `swift test` does not keep
/// both cores busy for half a minute while its timing-bound suites run.
@Suite("Lifecycle Stress")
struct StressTests {
    /// How a task's handler behaves.
    enum Behaviour: CaseIterable {
        case finish, returnWithoutFinish, throwMidBody, failBeforeHead, callback
    }

    /// How and when the engine stops the task.
    enum Stop: CaseIterable {
        case never, beforeRun, fromAnotherTask, fromADispatchThread
    }

    struct Outcome: Sendable {
        var stopped = false
        var terminals = 0
        var finishes = 0
        var failures = 0
        var violations = 0
        var callsAfterStop = 0
    }

    /// A small deterministic generator, so a failing run can be replayed from its seed.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A callback-style handler answering from a dispatch thread, as ported WKURLSchemeHandler code does.
    struct DispatchCallbackHandler: CallbackSchemeHandler {
        func start(_ task: CallbackSchemeTask) {
            DispatchQueue.global().async {
                task.didReceive(SchemeResponse(mimeType: "text/plain"))
                task.didReceive(Data(repeating: 1, count: 32))
                task.didReceive(Data(repeating: 2, count: 32))
                task.didFinish()
            }
        }
        func stop(_ task: CallbackSchemeTask) {}
    }

    static var taskCount: Int {
        ProcessInfo.processInfo.environment["SCHEMEKIT_STRESS_TASKS"].flatMap(Int.init) ?? 20_000
    }

    /// Writes from several child tasks at once.
    static let concurrentWriter = ClosureHandler(name: "stress") { request, writer in
        let behaviour = request.path.dropFirst()
        if behaviour == "failBeforeHead" {
            try await writer.fail(InjectedError("refused"))
            return .handled
        }
        try await writer.writeHead(SchemeResponse(mimeType: "application/octet-stream"))
        let writers = 1 + Int(request.port ?? 0) % 3
        try await withThrowingTaskGroup(of: Void.self) { group in
            for child in 0..<writers {
                group.addTask {
                    for chunk in 0..<(1 + (child + chunk(request)) % 4) {
                        if behaviour == "throwMidBody", child == writers - 1, chunk == 1 {
                            throw InjectedError("read error")
                        }
                        try await writer.write(
                            Data(repeating: UInt8(truncatingIfNeeded: chunk), count: 16 + 16 * child))
                    }
                }
            }
            try await group.waitForAll()
        }
        if behaviour == "finish" { try await writer.finish() }
        return .handled
    }

    private static func chunk(_ request: SchemeRequest) -> Int { request.path.utf8.count }

    @Test func stopsAtRandomMomentsNeverLeakAWriteToTheEngine() async throws {
        // Its own process: it keeps every thread of the cooperative pool busy for seconds, which
        // would starve the timing-bound tests of a plain `swift test` sharing the pool.
        guard try await IsolatedProcess.isInside(test: "stopsAtRandomMomentsNeverLeakAWriteToTheEngine") else { return }
        let count = Self.taskCount
        let seed = UInt64(Date().timeIntervalSince1970 * 1000)
        let registry = SchemeRegistry()
        try registry.register(Self.concurrentWriter, for: "app")
        try registry.register(CallbackHandlerAdapter(DispatchCallbackHandler()), for: "app", pathPrefix: "/callback")
        let queues = (0..<4).map { DispatchQueue(label: "engine-\($0)") }
        let requests = try Behaviour.allCases.flatMap { behaviour in
            try (0..<3).map { port in try SchemeRequest("app://localhost:\(port)/\(behaviour)") }
        }

        let window = 64
        let (totals, stoppedTasks) = try await withTimeout(TestTiming.scaled(.seconds(600))) {
            var totals = Outcome()
            var stoppedTasks = 0
            var generator = SplitMix64(state: seed)
            await withTaskGroup(of: Outcome.self) { group in
                var inFlight = 0
                func collect(_ outcome: Outcome) {
                    totals.terminals += outcome.terminals
                    totals.finishes += outcome.finishes
                    totals.failures += outcome.failures
                    totals.violations += outcome.violations
                    totals.callsAfterStop += outcome.callsAfterStop
                    if outcome.stopped {
                        stoppedTasks += 1
                        // A stopped task never sees a terminal event.
                        if outcome.terminals != 0 { totals.violations += 1 }
                    } else if outcome.terminals != 1 {
                        // Exactly one terminal event for a task that was not stopped.
                        totals.violations += 1
                    }
                }
                for index in 0..<count {
                    if inFlight == window, let outcome = await group.next() {
                        collect(outcome)
                        inFlight -= 1
                    }
                    let request = requests[Int(generator.next() % UInt64(requests.count))]
                    let stop = Stop.allCases[Int(generator.next() % UInt64(Stop.allCases.count))]
                    let delay = Int(generator.next() % 8)
                    let executor: (any SchemeDeliveryQueue)? = index % 2 == 0 ? nil : queues[index % queues.count]
                    group.addTask {
                        await Self.runOne(
                            registry: registry, request: request, executor: executor, stop: stop, delay: delay)
                    }
                    inFlight += 1
                }
                for await outcome in group { collect(outcome) }
            }
            return (totals, stoppedTasks)
        }

        let metrics = registry.metrics
        print("Stress: \(count) tasks, seed \(seed), \(stoppedTasks) stopped, \(metrics)")
        #expect(totals.callsAfterStop == 0, "seed \(seed)")
        #expect(totals.violations == 0, "seed \(seed)")
        #expect(metrics.started == count)
        #expect(metrics.finished + metrics.failed + metrics.stopped == metrics.started)
        #expect(metrics.live == 0)
        #expect(metrics.finished == totals.finishes)
        #expect(metrics.failed == totals.failures)
        #expect(metrics.stopped == stoppedTasks)
        #expect(metrics.misuseErrors == 0)
        // The run exercised both endings.
        #expect(stoppedTasks > 0 && totals.terminals > 0)
    }

    private static func runOne(
        registry: SchemeRegistry, request: SchemeRequest, executor: (any SchemeDeliveryQueue)?, stop: Stop, delay: Int
    ) async -> Outcome {
        let sink = CountingSink(deliveryQueue: executor)
        let task = registry.task(for: request, sink: sink)
        @Sendable func stopNow() {
            task.stop()
            if task.isStopped { sink.markStopped() }
        }
        switch stop {
        case .never:
            await task.run()
        case .beforeRun:
            stopNow()
            await task.run()
        case .fromAnotherTask:
            async let stopper: Void = {
                for _ in 0..<delay { await Task.yield() }
                stopNow()
            }()
            await task.run()
            await stopper
        case .fromADispatchThread:
            async let stopper: Void = withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    for _ in 0..<(delay * 50) { _ = sink.bytes }
                    stopNow()
                    continuation.resume()
                }
            }
            await task.run()
            await stopper
        }
        return Outcome(
            stopped: task.isStopped,
            terminals: sink.terminalCount,
            finishes: sink.finishes,
            failures: sink.failures,
            violations: sink.violations,
            callsAfterStop: sink.callsAfterStop
        )
    }
}
