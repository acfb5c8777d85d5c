public import Foundation
public import SchemeKit
import Synchronization

/// A `SchemeTaskSink` that records every event it receives, with timestamps, and reports
/// protocol violations instead of crashing — the test double of an engine.
///
/// A violation is anything a real engine would crash on or mis-handle: an event after the engine
/// stopped the task (see ``markStopped()``), an event after a terminal event, data before the
/// response head, a second head, an empty data chunk. A correct task leaves ``violations`` empty.
///
/// Use it directly with `SchemeRegistry/handle(_:sink:)`, or let a ``ScriptedEngine`` create one
/// per task and stop the task at a chosen moment.
///
/// ```swift
/// let sink = RecordingSink()
/// await registry.handle(try SchemeRequest("app://localhost/a.txt"), sink: sink)
/// #expect(sink.response?.status == .ok)
/// #expect(sink.bodyString == "hello")
/// #expect(sink.violations.isEmpty)
/// ```
public final class RecordingSink: SchemeTaskSink {
    /// One event the engine received.
    public enum Event: Sendable, CustomStringConvertible {
        /// A response head.
        case head(SchemeResponse)
        /// Body bytes.
        case data(Data)
        /// The finish.
        case finish
        /// A failure, described.
        case fail(String)
        /// The engine stopped the task (recorded by ``markStopped()``).
        case stopped

        /// A short description.
        public var description: String {
            switch self {
            case .head(let response): "head(\(response.status.code))"
            case .data(let data): "data(\(data.count))"
            case .finish: "finish"
            case .fail(let error): "fail(\(error))"
            case .stopped: "stopped"
            }
        }
    }

    /// An event with the moment it arrived.
    public struct Record: Sendable {
        /// The event.
        public var event: Event
        /// When it arrived.
        public var time: ContinuousClock.Instant
    }

    struct State {
        var records: [Record] = []
        var violations: [String] = []
        var stopped = false
        var terminal = false
        var head = false
        var fileRegions = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Locked(State())

    /// Where the sink wants its calls; `nil` (inline) by default.
    public let deliveryQueue: (any SchemeDeliveryQueue)?

    /// Whether the sink takes file regions (as an engine that sends files itself does); their
    /// bytes are read and recorded like any other body, and the recording counts them.
    public let acceptsFileRegions: Bool

    /// Creates a sink.
    ///
    /// - Parameters:
    ///   - deliveryQueue: Where the guarded task must call the sink. Default: inline.
    ///   - acceptsFileRegions: Take file regions, as `schemeserve` does. Default: `false`.
    public init(deliveryQueue: (any SchemeDeliveryQueue)? = nil, acceptsFileRegions: Bool = false) {
        self.deliveryQueue = deliveryQueue
        self.acceptsFileRegions = acceptsFileRegions
    }

    /// How many bodies arrived as file regions (only with ``acceptsFileRegions``).
    package var fileRegionCount: Int { state.withLock { $0.fileRegions } }

    /// Records the head; a second head or a head after a terminal event is a violation.
    public func receive(_ response: SchemeResponse) {
        record(.head(response)) { state in
            if state.head { return "second response head" }
            state.head = true
            return nil
        }
    }

    /// Records body bytes; bytes before the head or after a terminal event are a violation.
    public func receive(_ body: SchemeBody) {
        record(.data(body.data)) { state in
            if !state.head { return "data before the response head" }
            if body.isEmpty { return "empty data chunk" }
            if body.fileRegion != nil {
                if !acceptsFileRegions { return "a file region for a sink that takes none" }
                state.fileRegions += 1
            }
            return nil
        }
    }

    /// Records the finish.
    public func finish() {
        record(.finish) { state in
            if !state.head { return "finish before the response head" }
            state.terminal = true
            return nil
        }
    }

    /// Records a failure.
    public func fail(_ error: any Error) {
        record(.fail(String(describing: error))) { state in
            state.terminal = true
            return nil
        }
    }

    /// Marks the task stopped by the engine; any event after this is a violation.
    ///
    /// Call it right after `SchemeTask/stop()` returned, and only when the stop took effect
    /// (`SchemeTask/isStopped` is `true`): a stop that arrives after the finish is ignored by the
    /// task and must not be recorded as one.
    public func markStopped() {
        let waiters = state.withLock { state in
            state.stopped = true
            state.records.append(Record(event: .stopped, time: .now))
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    private func record(_ event: Event, check: (inout State) -> String?) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if state.stopped { state.violations.append("\(event) after stop") }
            if state.terminal { state.violations.append("\(event) after a terminal event") }
            if let problem = check(&state) { state.violations.append(problem) }
            state.records.append(Record(event: event, time: .now))
            guard state.terminal else { return [] }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Every event so far, in order.
    public var records: [Record] { state.withLock { $0.records } }

    /// Every event so far, in order, without timestamps.
    public var events: [Event] { records.map(\.event) }

    /// Protocol violations seen: anything after stop or after a terminal event, data before the
    /// head, a second head. Empty for a correct task.
    public var violations: [String] { state.withLock { $0.violations } }

    /// The response head, if one arrived.
    public var response: SchemeResponse? {
        for case .head(let response) in events { return response }
        return nil
    }

    /// All body bytes, concatenated.
    public var body: Data {
        events.reduce(into: Data()) { if case .data(let chunk) = $1 { $0.append(chunk) } }
    }

    /// The body decoded as UTF-8.
    public var bodyString: String { String(decoding: body, as: UTF8.self) }

    /// Whether the finish arrived.
    public var isFinished: Bool { events.contains { if case .finish = $0 { true } else { false } } }

    /// The failure's description, if the task failed.
    public var failure: String? {
        for case .fail(let message) in events { return message }
        return nil
    }

    /// The number of terminal events (finish or fail) received: 1 for a completed task, 0 for a stopped one.
    public var terminalCount: Int {
        events.filter { if case .finish = $0 { true } else if case .fail = $0 { true } else { false } }.count
    }

    /// Whether the engine marked the task stopped.
    public var isStopped: Bool { state.withLock { $0.stopped } }

    /// The body chunks, in the order they arrived.
    public var chunks: [Data] {
        events.compactMap { if case .data(let chunk) = $0 { chunk } else { nil } }
    }

    /// Suspends until a terminal event arrives or the task is marked stopped.
    ///
    /// Returns at once when that already happened, and when the calling task is cancelled.
    public func waitForCompletion() async {
        let id = state.withLock { state -> Int in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state -> Bool in
                    if state.terminal || state.stopped || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Suspends until a terminal event arrives or the task is marked stopped, for at most `timeout`.
    ///
    /// - Parameter timeout: The longest wait.
    /// - Returns: `true` when the task completed or was stopped, `false` on timeout.
    public func waitForCompletion(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForCompletion() }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
        return state.withLock { $0.terminal || $0.stopped }
    }
}
