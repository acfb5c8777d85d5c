import Foundation
import LoopbackTestSupport
import SchemeKit
import SchemeKitTesting
import SchemeKitWKWebViewStandIn
import Synchronization
import Testing
import WebKitStandIn

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Random start/stop interleavings: handlers write from the cooperative pool (yielding between
/// writes) while the engine, on the main actor, stops tasks at random moments — in the same turn
/// as the start, after a random number of main-queue turns, after a random event, after the end,
/// or never. The stand-in must record no violation at all.
@MainActor
@Suite(.timeLimit(.minutes(2)))
struct WKWebViewInterleavingTests {
    /// 10,000, or `SCHEMEKIT_WK_INTERLEAVINGS`.
    static let count =
        ProcessInfo.processInfo.environment["SCHEMEKIT_WK_INTERLEAVINGS"].flatMap { Int($0) } ?? 10_000

    /// What one request's handler does.
    enum Script: Int, CaseIterable {
        /// Head, some chunks, finish.
        case finish
        /// Head, some chunks, then throws.
        case throwMidBody
        /// Throws before the head.
        case throwEarly
        /// Head, some chunks, then waits until cancelled (only ever stopped).
        case hang
    }

    /// When the engine stops the task.
    enum Stop: Int, CaseIterable {
        case sameTurn, afterTurns, afterEvent, afterEnd, never
    }

    @Test func tenThousandRandomStartStopInterleavingsRaiseNoViolation() async throws {
        let ledger = HandlerLedger()
        let registry = SchemeRegistry()
        try registry.register(
            ClosureHandler { request, writer in
                try await ledger.run {
                    let parts = (request.query ?? "").split(separator: "-").compactMap { Int($0) }
                    let (script, chunks) = (Script(rawValue: parts[0])!, parts[1])
                    if script == .throwEarly {
                        await Task.yield()
                        throw CancellationError()
                    }
                    try await writer.writeHead(SchemeResponse(status: .ok, mimeType: "text/plain"))
                    for index in 0..<chunks {
                        try await writer.write(SchemeBody(Data(repeating: UInt8(index), count: 1 + index * 97)))
                        if index % 2 == 0 { await Task.yield() }
                    }
                    switch script {
                    case .finish: try await writer.finish()
                    case .throwMidBody: throw SchemeTaskError.noResponse
                    case .hang: try await Task.sleep(for: .seconds(3600))
                    case .throwEarly: break
                    }
                    return .handled
                }
            }, for: "app")
        let engine = try ScriptedWebKit(registry: registry, options: WKSchemeAdapterOptions(pieceSize: 1024))
        var random = SeededGenerator(seed: 46)  // SplitMix64: a failing interleaving replays
        var tasks: [StandInURLSchemeTask] = []
        tasks.reserveCapacity(Self.count)
        let clock = ContinuousClock()
        let started = clock.now
        try await withTimeLimit(.seconds(90), "\(Self.count) interleavings") { @MainActor in
            var batch: [StandInURLSchemeTask] = []
            for number in 0..<Self.count {
                let script = Script(rawValue: Int(random.next() % 4))!
                var plan = Stop(rawValue: Int(random.next() % 5))!
                // A hanging handler ends only when stopped: in the same turn or a few turns later.
                if script == .hang, plan != .sameTurn { plan = .afterTurns }
                let stop = plan
                let chunks = Int(random.next() % 6)
                let turns = Int(random.next() % 8)
                let stopAtEvent = 1 + Int(random.next() % 4)
                let request = ScriptedWebKit.request("app://localhost/t\(number)?\(script.rawValue)-\(chunks)")
                let seen = Locked(0)
                let task = engine.start(request) { task, _ in
                    guard stop == .afterEvent else { return }
                    let count = seen.withLock {
                        $0 += 1
                        return $0
                    }
                    if count == stopAtEvent {
                        DispatchQueue.main.async { MainActor.assumeIsolated { engine.stop(task) } }
                    }
                }
                switch stop {
                case .sameTurn: engine.stop(task)
                case .afterTurns: Self.later(turns) { engine.stop(task) }
                case .afterEvent, .afterEnd, .never: break
                }
                batch.append(task)
                tasks.append(task)
                if batch.count == 32 || number == Self.count - 1 {
                    for task in batch { await task.waitForEnd() }
                    batch.removeAll(keepingCapacity: true)
                }
            }
            // Stops after the end: WebKit calls nothing for a completed task; the adapter's own
            // `webView(_:stop:)` is called anyway for a tenth of them.
            for (index, task) in tasks.enumerated() where task.isCompleted && index % 10 == 0 {
                engine.stop(task)
                engine.adapter.webView(engine.webView, stop: task)
            }
        }
        #expect(await eventually { @Sendable in ledger.settled })
        await drainMainQueue()
        await drainMainQueue()
        let violations = tasks.flatMap(\.violations)
        let stopped = tasks.filter(\.isStopped).count
        let completed = tasks.filter(\.isCompleted).count
        let finished = tasks.filter { $0.events.last == .finish }.count
        print(
            "Stress: WKWebView \(tasks.count) start/stop interleavings: \(stopped) stopped, \(finished) finished, "
                + "\(completed - finished) failed, \(violations.count) violations, "
                + "\(ledger.cancelled) handlers cancelled, in \(clock.now - started)")
        #expect(violations.isEmpty, "\(violations.prefix(5))")
        #expect(stopped + completed == tasks.count)
        #expect(stopped > 0 && finished > 0 && completed > finished)
        #expect(engine.adapter.liveTaskCount == 0)
        for task in tasks where task.isCompleted {
            // WebKit's order: at most one response, first; data only after it; one terminal call, last.
            let events = task.events
            for (index, event) in events.enumerated() {
                switch event {
                case .response: #expect(index == 0)
                case .data: #expect(index > 0)
                case .finish, .fail: #expect(index == events.count - 1)
                }
            }
        }
    }

    /// Runs `body` after `turns` turns of the main queue.
    static func later(_ turns: Int, _ body: @escaping @MainActor () -> Void) {
        guard turns > 0 else { return body() }
        DispatchQueue.main.async { MainActor.assumeIsolated { later(turns - 1, body) } }
    }
}
