public import Foundation
import Synchronization

/// The task a ``CallbackSchemeHandler`` answers, with `WKURLSchemeTask`'s verbs.
///
/// Every method may be called from any thread and never traps. Calls are queued in order and
/// delivered through the guarded lifecycle; after the task is stopped or completed they are
/// dropped.
public final class CallbackSchemeTask: Sendable, Hashable {
    enum Event: Sendable {
        case head(SchemeResponse)
        case body(Data)
        case finish
        case fail(any Error)
    }

    /// The request to answer.
    public let request: SchemeRequest
    let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    /// 0: not started, 1: started, 2: stopped.
    private let phase = Atomic<UInt8>(0)

    init(request: SchemeRequest) {
        self.request = request
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
    }

    /// Whether the engine stopped this task; calls after that are dropped.
    public var isStopped: Bool { phase.load(ordering: .acquiring) == 2 }

    /// Sends the response head.
    public func didReceive(_ response: SchemeResponse) { continuation.yield(.head(response)) }

    /// Sends body bytes.
    public func didReceive(_ data: Data) { continuation.yield(.body(data)) }

    /// Completes the response.
    public func didFinish() {
        continuation.yield(.finish)
        continuation.finish()
    }

    /// Fails the task.
    public func didFailWithError(_ error: any Error) {
        continuation.yield(.fail(error))
        continuation.finish()
    }

    /// Moves to "started"; `false` when the task was stopped first (then the handler must not start).
    func markStarted() -> Bool {
        phase.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
    }

    /// Moves to "stopped" and ends the event stream; `true` when the handler had been started
    /// (and so must be told to stop), `false` when it never started or was already stopped.
    func markStopped() -> Bool {
        let previous = phase.exchange(2, ordering: .acquiringAndReleasing)
        continuation.finish()
        return previous == 1
    }

    /// Identity.
    public static func == (lhs: CallbackSchemeTask, rhs: CallbackSchemeTask) -> Bool { lhs === rhs }

    /// Identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
