public import SchemeKit
import Synchronization

/// Wraps a handler and counts what happens to it: calls, answers, passes, throws, cancellations,
/// and calls in flight.
///
/// ```swift
/// let counted = CountingHandler(StaticHandler("hi"))
/// let engine = try ScriptedEngine(serving: counted)
/// _ = try await engine.run("app://localhost/a")
/// let counts = counted.counts
/// #expect(counts.calls == 1 && counts.handled == 1 && counts.inFlight == 0)
/// ```
public final class CountingHandler<Wrapped: SchemeHandler>: SchemeForwardingHandler {
    /// A snapshot of the counters.
    public struct Counts: Sendable, Hashable {
        /// Requests the handler was asked to answer.
        public var calls = 0
        /// Calls that returned `handled`.
        public var handled = 0
        /// Calls that returned `passed`.
        public var passed = 0
        /// Calls that threw.
        public var threw = 0
        /// Calls whose Swift task was cancelled (stopped) by the time they returned or threw.
        public var cancelled = 0
        /// Calls that have not returned yet.
        public var inFlight = 0
    }

    /// The counted handler.
    public let wrapped: Wrapped
    private let state = Locked(Counts())

    /// Counts the calls to `wrapped`.
    public init(_ wrapped: Wrapped) {
        self.wrapped = wrapped
    }

    /// Every counter at once.
    public var counts: Counts { state.withLock { $0 } }
    /// Requests the handler was asked to answer.
    package var calls: Int { counts.calls }
    /// Calls that returned `handled`.
    package var handled: Int { counts.handled }
    /// Calls that returned `passed`.
    package var passed: Int { counts.passed }
    /// Calls that threw.
    package var threw: Int { counts.threw }
    /// Calls whose task was cancelled by the time they ended.
    package var cancelled: Int { counts.cancelled }
    /// Calls that have not returned yet.
    package var inFlight: Int { counts.inFlight }

    /// The wrapped handler's answer, counted: an answer known at once counts as handled (or
    /// passed) at once; a writing answer when it returns, throws or is cancelled.
    public func answer(to request: SchemeRequest) -> SchemeAnswer {
        state.withLock { $0.calls += 1 }
        switch wrapped.answer(to: request) {
        case .passed:
            state.withLock { $0.passed += 1 }
            return .passed
        case .response(let response):
            state.withLock { $0.handled += 1 }
            return .response(response)
        case .writing(let write):
            state.withLock { $0.inFlight += 1 }
            return .writing { [state] writer in
                do {
                    let outcome = try await write(writer)
                    let cancelled = Task.isCancelled
                    state.withLock {
                        $0.inFlight -= 1
                        if outcome == .handled { $0.handled += 1 } else { $0.passed += 1 }
                        if cancelled { $0.cancelled += 1 }
                    }
                    return outcome
                } catch {
                    let cancelled = Task.isCancelled
                    state.withLock {
                        $0.inFlight -= 1
                        $0.threw += 1
                        if cancelled { $0.cancelled += 1 }
                    }
                    throw error
                }
            }
        }
    }
}
