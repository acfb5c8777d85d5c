#if Chromium || Firefox
    package import SchemeKit

    /// The client side both browser protocols share (DevTools, WebDriver BiDi): commands matched to
    /// their answers by id, events fanned out to subscribers, and one close that fails or ends
    /// everything still waiting. The connection types (`ChromiumConnection`, `FirefoxConnection`)
    /// frame, send and parse; this holds the state between.
    ///
    /// Contract: after ``terminate(_:)`` (the first call's error wins) every pending and later
    /// command throws that error, every event sequence ends and ``waitUntilClosed()`` returns;
    /// nothing waits forever. A cancelled caller stops waiting for its answer, which is dropped.
    /// The close's error is an `EngineError`, as every engine's is.
    package final class ProtocolConnectionCore<Value: Sendable, Event: Sendable, Filter: Sendable>: Sendable {
        private struct Subscriber {
            var filter: Filter
            var continuation: AsyncStream<Event>.Continuation
        }

        private struct State {
            var nextID = 1
            var pending: [Int: CheckedContinuation<Value, any Error>] = [:]
            /// The group (a DevTools session) of each pending command sent in one.
            var groups: [Int: String] = [:]
            /// The label (the method) of each pending command sent with one.
            var labels: [Int: String] = [:]
            var subscribers: [Int: Subscriber] = [:]
            var nextSubscriber = 0
            var closedError: EngineError?
            var closeWaiters: [CheckedContinuation<Void, Never>] = []
            var droppedEvents = 0
        }

        private let state = Locked(State())

        /// A core with no command sent and no subscriber.
        package init() {}

        /// Why the connection closed, once it has.
        package var closedError: EngineError? { state.withLock { $0.closedError } }

        /// Events dropped because a subscriber's buffer was full (one per subscriber that missed one).
        package var droppedEvents: Int { state.withLock { $0.droppedEvents } }

        /// A new command id: 1, 2, 3, …
        package func nextCommandID() -> Int {
            state.withLock { state in
                defer { state.nextID += 1 }
                return state.nextID
            }
        }

        /// Waits for the answer to command `id`, which `send` puts on the wire once the command is
        /// registered; `send` calls its argument with an error when the command could not go out
        /// (now or later), which fails the command. Refused at once, without calling `send`, when
        /// the connection is closed or the caller cancelled.
        ///
        /// - Parameters:
        ///   - group: What the command belongs to (a DevTools session): ``fail(group:with:)``
        ///     fails it when that goes away. Default: none.
        ///   - label: What ``pendingCount(labelled:)`` counts it under (its method). Default: none.
        package func answer(
            to id: Int, group: String? = nil, label: String? = nil,
            send: (_ failed: @escaping @Sendable (any Error) -> Void) -> Void
        ) async throws -> Value {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let refused: (any Error)? = state.withLock { state in
                        if let error = state.closedError { return error }
                        if Task.isCancelled { return CancellationError() }
                        state.pending[id] = continuation
                        if let group { state.groups[id] = group }
                        if let label { state.labels[id] = label }
                        return nil
                    }
                    if let refused {
                        continuation.resume(throwing: refused)
                        return
                    }
                    send { [weak self] error in self?.resolve(id, with: .failure(error)) }
                }
            } onCancel: {
                resolve(id, with: .failure(CancellationError()))
            }
        }

        /// Hands command `id` its answer; nothing happens when no one waits for it any more.
        package func resolve(_ id: Int, with result: Result<Value, any Error>) {
            state.withLock { state in
                state.groups.removeValue(forKey: id)
                state.labels.removeValue(forKey: id)
                return state.pending.removeValue(forKey: id)
            }?.resume(with: result)
        }

        /// How many commands sent with `label` wait for their answer: an observation for tests,
        /// which wait for a command to be out before they act on it.
        package func pendingCount(labelled label: String) -> Int {
            state.withLock { state in state.labels.values.count { $0 == label } }
        }

        /// Fails every pending command of `group` with `error`: the session they were sent in is
        /// gone, and its answers will never come.
        package func fail(group: String, with error: EngineError) {
            let failed = state.withLock { state in
                let ids = state.groups.filter { $0.value == group }.map(\.key)
                return ids.compactMap { id -> CheckedContinuation<Value, any Error>? in
                    state.groups.removeValue(forKey: id)
                    state.labels.removeValue(forKey: id)
                    return state.pending.removeValue(forKey: id)
                }
            }
            for continuation in failed { continuation.resume(throwing: error) }
        }

        /// The events from now on whose subscription `filter` matches (as ``publish(_:to:)`` decides),
        /// as they arrive; a sequence that ends when the connection closes or the caller stops.
        package func events(
            _ filter: Filter, bufferingPolicy: AsyncStream<Event>.Continuation.BufferingPolicy = .unbounded
        ) -> AsyncStream<Event> {
            let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: bufferingPolicy)
            let key: Int? = state.withLock { state in
                guard state.closedError == nil else { return nil }
                let key = state.nextSubscriber
                state.nextSubscriber += 1
                state.subscribers[key] = Subscriber(filter: filter, continuation: continuation)
                return key
            }
            guard let key else {
                continuation.finish()
                return stream
            }
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.subscribers.removeValue(forKey: key) }
            }
            return stream
        }

        /// Yields `event` to every subscriber whose filter `matches`; counts the ones it was dropped for.
        package func publish(_ event: Event, to matches: (Filter) -> Bool) {
            let targets = state.withLock { state in
                state.subscribers.values.filter { matches($0.filter) }.map(\.continuation)
            }
            var dropped = 0
            for continuation in targets {
                if case .dropped = continuation.yield(event) { dropped += 1 }
            }
            if dropped > 0 { state.withLock { $0.droppedEvents += dropped } }
        }

        /// Returns when the connection has closed.
        package func waitUntilClosed() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let closed = state.withLock { state in
                    if state.closedError != nil { return true }
                    state.closeWaiters.append(continuation)
                    return false
                }
                if closed { continuation.resume() }
            }
        }

        /// Closes the core: pending commands throw the first close's error, sequences end, waiters return.
        package func terminate(_ error: EngineError) {
            let (reason, pending, subscribers, waiters) = state.withLock { state in
                if state.closedError == nil { state.closedError = error }
                defer {
                    state.pending = [:]
                    state.groups = [:]
                    state.labels = [:]
                    state.subscribers = [:]
                    state.closeWaiters = []
                }
                return (state.closedError ?? error, state.pending, state.subscribers, state.closeWaiters)
            }
            for continuation in pending.values { continuation.resume(throwing: reason) }
            for subscriber in subscribers.values { subscriber.continuation.finish() }
            for waiter in waiters { waiter.resume() }
        }
    }
#endif
