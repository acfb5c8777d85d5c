/// Why ``SessionPool/acquire(for:)`` gave no session.
public struct SessionPoolError: Error, Hashable, Sendable, CustomStringConvertible {
    enum Code: Hashable, Sendable {
        case exhausted, timedOut, shutDown, foreignSession
    }

    let code: Code

    /// Every session is in use, the maximum is reached, and the policy is ``SessionPoolConfiguration/ExhaustionPolicy/fail``.
    public static let exhausted = SessionPoolError(code: .exhausted)
    /// No session came back within the ``SessionPoolConfiguration/ExhaustionPolicy/wait(timeout:)`` timeout.
    public static let timedOut = SessionPoolError(code: .timedOut)
    /// The pool was shut down.
    public static let shutDown = SessionPoolError(code: .shutDown)
    /// A session was given back to a pool that did not hand it out (or already took it back).
    public static let foreignSession = SessionPoolError(code: .foreignSession)

    /// A one-line explanation.
    public var description: String {
        switch code {
        case .exhausted: "every session is in use and the pool is at its maximum"
        case .timedOut: "no session became free before the timeout"
        case .shutDown: "the session pool is shut down"
        case .foreignSession: "the session is not in use from this pool"
        }
    }
}
