/// When a ``ScriptedEngine`` stops a task, as a web engine would on navigation or view close.
///
/// Each point is exact, not timed: the engine stops from inside the delivery it is waiting for.
public enum StopPoint: Sendable, Hashable, CustomStringConvertible {
    /// Never: the task runs to its end.
    case never
    /// Before the task runs: the handler is never called.
    case beforeStart
    /// After the handler's first write (its head, or a failure) was accepted and before it
    /// reaches the engine: nothing at all reaches the engine, and the handler's next write
    /// throws `CancellationError`. Deliveries go through an intercepting executor for this point.
    case beforeHead
    /// Right after the response head reached the engine: no body byte does.
    case afterHead
    /// Right after the body chunk that brings the bytes received to at least this count; if the
    /// body is shorter, the task finishes normally. `afterBytes(0)` is ``afterHead``.
    case afterBytes(Int)
    /// After the finish or failure reached the engine: the stop must be ignored.
    case afterFinish

    /// The point's name.
    public var description: String {
        switch self {
        case .never: "never"
        case .beforeStart: "beforeStart"
        case .beforeHead: "beforeHead"
        case .afterHead: "afterHead"
        case .afterBytes(let count): "afterBytes(\(count))"
        case .afterFinish: "afterFinish"
        }
    }
}
