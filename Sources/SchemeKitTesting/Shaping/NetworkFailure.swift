/// A connection that breaks mid-response: after `byte` body bytes reached the engine, the task
/// fails with its `error`.
///
/// The body is cut exactly at `byte` (a write that crosses it is split), so the engine receives
/// precisely the first `byte` bytes and then the failure; the handler's write throws `error`, so
/// it stops. `byte == 0` fails right after the head. A body shorter than `byte` completes normally,
/// as on a network that broke too late to matter.
///
/// ```swift
/// let flaky = files.shaped(NetworkConditions(failure: .atByte(64 * 1024)))
/// ```
public struct NetworkFailure: Sendable {
    /// How many body bytes reach the engine before the failure.
    package var byte: Int
    /// The error the task fails with.
    package var error: any Error

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - byte: The body bytes delivered before the failure (negative counts as 0).
    ///   - error: The failure. Default: an ``InjectedError`` saying "connection lost after N bytes".
    package init(byte: Int, error: (any Error)? = nil) {
        self.byte = max(0, byte)
        self.error = error ?? InjectedError("connection lost after \(max(0, byte)) bytes (injected)")
    }

    /// A failure after `byte` body bytes.
    ///
    /// - Parameters:
    ///   - byte: The body bytes delivered before the failure (negative counts as 0).
    ///   - error: The failure. Default: an ``InjectedError`` saying "connection lost after N bytes".
    public static func atByte(_ byte: Int, error: (any Error)? = nil) -> NetworkFailure {
        NetworkFailure(byte: byte, error: error)
    }
}
