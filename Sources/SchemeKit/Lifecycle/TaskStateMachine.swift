/// The rules of one task's lifecycle, as a pure state machine.
///
/// It holds no lock and performs nothing: each `mutating` method takes one event and returns the
/// action its caller (``GuardedTask``) must perform. Two sides are tracked separately:
/// - the *handler side*: what the handler has written (no head yet, head sent, completed);
/// - the *engine side*: what has been delivered to the engine (open, terminal delivered, stopped).
///
/// Keeping them apart matters when delivery hops to an engine executor: a finish the handler has
/// written but the engine has not yet received must be dropped if the engine stops in between.
struct TaskStateMachine: Sendable {
    /// What the handler is trying to write.
    enum Write: Sendable, Equatable {
        case head, body, finish, fail
        /// Every handler passed and the engine answers the request itself (a terminal write).
        case pass
    }

    /// How a handler's task ended.
    enum Outcome: Sendable {
        case handled, passed, threw
    }

    enum HandlerSide: Sendable, Equatable {
        case noHead, headWritten, completed
    }

    enum EngineSide: Sendable, Equatable {
        case open, terminalDelivered, stopped
    }

    enum StartAction: Sendable, Equatable {
        /// Run the handler.
        case run
        /// The engine stopped the task before it started: do nothing; the task is over.
        case skip
        /// The task was started before: do nothing; the first start's run goes on.
        case alreadyStarted
    }

    enum AcceptAction: Sendable, Equatable {
        /// Deliver the write to the engine (now, or on its executor).
        case deliver
        /// The engine stopped the task: drop the write, count it, throw cancellation to the handler.
        case rejectStopped
        /// The handler broke the protocol: throw this error, deliver nothing.
        case misuse(SchemeTaskError)
    }

    enum DeliverAction: Sendable, Equatable {
        /// Call the engine.
        case send
        /// Call the engine with a terminal event; count it as finished or failed.
        case sendTerminal
        /// The engine stopped the task after the write was accepted: drop it and count it.
        case drop
    }

    enum StopAction: Sendable, Equatable {
        /// The task is now stopped: count it and cancel the handler's work.
        case cancel
        /// A terminal event was already delivered, or the task was stopped before: nothing to do.
        case ignore
    }

    enum CompletionAction: Sendable, Equatable {
        /// Nothing to do: the handler completed the task, or the engine stopped it.
        case none
        /// The handler wrote a head but returned without finishing: finish for it.
        case finish
        /// The handler answered nothing, or threw: fail the task.
        case fail
        /// The handler passed: answer with the registry's fallback (404), or hand the request back
        /// to an engine that takes passed requests.
        case notFound
    }

    private(set) var handler: HandlerSide = .noHead
    private(set) var engine: EngineSide = .open
    private(set) var started = false

    /// The engine (or registry) is about to run the handler.
    mutating func start() -> StartAction {
        guard !started else { return .alreadyStarted }
        guard engine == .open else { return .skip }
        started = true
        return .run
    }

    /// The handler writes something; decides whether it may reach the engine.
    mutating func accept(_ write: Write) -> AcceptAction {
        if engine == .stopped { return .rejectStopped }
        switch (handler, write) {
        case (.completed, _):
            return .misuse(.alreadyCompleted)
        case (.noHead, .head):
            handler = .headWritten
            return .deliver
        case (.headWritten, .head):
            return .misuse(.duplicateHead)
        case (.noHead, .body):
            return .misuse(.bodyBeforeHead)
        case (.noHead, .finish):
            return .misuse(.finishBeforeHead)
        case (.noHead, .pass):
            handler = .completed
            return .deliver
        case (.headWritten, .pass):
            return .misuse(.duplicateHead)
        case (.headWritten, .body):
            return .deliver
        case (.headWritten, .finish), (_, .fail):
            handler = .completed
            return .deliver
        }
    }

    /// An accepted write is about to reach the engine.
    mutating func deliver(_ write: Write) -> DeliverAction {
        guard engine == .open else { return .drop }
        switch write {
        case .head, .body:
            return .send
        case .finish, .fail, .pass:
            engine = .terminalDelivered
            return .sendTerminal
        }
    }

    /// The engine stops the task.
    mutating func stop() -> StopAction {
        guard engine == .open else { return .ignore }
        engine = .stopped
        return .cancel
    }

    /// The handler's work has returned.
    mutating func handlerReturned(_ outcome: Outcome) -> CompletionAction {
        guard engine == .open, handler != .completed else { return .none }
        switch (handler, outcome) {
        case (.headWritten, .threw):
            return .fail
        case (.headWritten, _):
            return .finish
        case (_, .passed):
            return .notFound
        default:
            return .fail
        }
    }

    /// Whether the engine stopped the task.
    var isStopped: Bool { engine == .stopped }
}
