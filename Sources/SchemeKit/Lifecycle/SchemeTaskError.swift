/// A handler broke the task protocol, or a task could not be answered.
///
/// Misuse never traps and never reaches the engine: the offending write throws this error and is
/// counted in ``SchemeTaskMetrics/misuseErrors``. Writes after the engine stopped a task throw
/// `CancellationError` instead, which a handler treats as "stop now".
public struct SchemeTaskError: Error, Hashable, Sendable, CustomStringConvertible {
    enum Code: Hashable, Sendable {
        case duplicateHead, bodyBeforeHead, finishBeforeHead, alreadyCompleted, noResponse
    }

    let code: Code

    /// A second response head was written.
    public static let duplicateHead = SchemeTaskError(code: .duplicateHead)
    /// Body bytes were written before the response head.
    public static let bodyBeforeHead = SchemeTaskError(code: .bodyBeforeHead)
    /// The task was finished before a response head was written.
    public static let finishBeforeHead = SchemeTaskError(code: .finishBeforeHead)
    /// Something was written after the task had already finished or failed.
    public static let alreadyCompleted = SchemeTaskError(code: .alreadyCompleted)
    /// The handler claimed the request but returned without writing a response; the task failed.
    public static let noResponse = SchemeTaskError(code: .noResponse)

    /// A one-line explanation.
    public var description: String {
        switch code {
        case .duplicateHead: "a response head was already written for this task"
        case .bodyBeforeHead: "body data was written before the response head"
        case .finishBeforeHead: "the task was finished before a response head was written"
        case .alreadyCompleted: "the task has already finished or failed"
        case .noResponse: "the handler returned without writing a response"
        }
    }
}
