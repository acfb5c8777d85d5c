public import SchemeKitTesting

/// A fault a ``FaultInjectingHandler`` injects into the handler it wraps.
///
/// Two families:
/// - *errors*: the handler throws, or fails the task through its writer, before the head or
///   after a given number of body bytes;
/// - *misuse*: the handler breaks the task protocol once (data before the head, a second head,
///   a second finish, a write after the finish). The guarded writer must reject it with a typed
///   `SchemeTaskError` (collected in ``FaultInjectingHandler/rejections``) and the response must
///   otherwise reach the engine intact.
public struct HandlerFault: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case throwBeforeHead(any Error)
        case failBeforeHead(any Error)
        case throwAfterBytes(Int, any Error)
        case failAfterBytes(Int, any Error)
        case bodyBeforeHead
        case duplicateHead
        case finishTwice
        case writeAfterFinish
    }

    let kind: Kind

    /// The handler throws `error` before writing anything; the task fails with it.
    public static func throwBeforeHead(_ error: any Error = InjectedError("injected before head")) -> HandlerFault {
        HandlerFault(kind: .throwBeforeHead(error))
    }

    /// The handler fails the task through its writer before the head (a handler that reports an
    /// error instead of throwing).
    public static func failBeforeHead(_ error: any Error = InjectedError("injected before head")) -> HandlerFault {
        HandlerFault(kind: .failBeforeHead(error))
    }

    /// The handler throws `error` once exactly `bytes` body bytes were written: a read error
    /// mid-file. The task fails after the head.
    public static func throwAfterBytes(_ bytes: Int, _ error: any Error = InjectedError("injected mid-body"))
        -> HandlerFault
    {
        HandlerFault(kind: .throwAfterBytes(max(0, bytes), error))
    }

    /// The handler fails the task through its writer once exactly `bytes` body bytes were written.
    public static func failAfterBytes(_ bytes: Int, _ error: any Error = InjectedError("injected mid-body"))
        -> HandlerFault
    {
        HandlerFault(kind: .failAfterBytes(max(0, bytes), error))
    }

    /// Misuse: one body chunk is written before the head.
    public static let bodyBeforeHead = HandlerFault(kind: .bodyBeforeHead)
    /// Misuse: the head is written twice.
    public static let duplicateHead = HandlerFault(kind: .duplicateHead)
    /// Misuse: the finish is written twice.
    public static let finishTwice = HandlerFault(kind: .finishTwice)
    /// Misuse: a body chunk is written after the finish.
    public static let writeAfterFinish = HandlerFault(kind: .writeAfterFinish)

    /// The fault's name.
    public var description: String {
        switch kind {
        case .throwBeforeHead: "throwBeforeHead"
        case .failBeforeHead: "failBeforeHead"
        case .throwAfterBytes(let bytes, _): "throwAfterBytes(\(bytes))"
        case .failAfterBytes(let bytes, _): "failAfterBytes(\(bytes))"
        case .bodyBeforeHead: "bodyBeforeHead"
        case .duplicateHead: "duplicateHead"
        case .finishTwice: "finishTwice"
        case .writeAfterFinish: "writeAfterFinish"
        }
    }
}
