#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a ``LocalFileHandler`` failed a task: its root is unavailable, or a file could not be read
/// after the handler started answering.
///
/// Refusals (403/404) are responses, not errors; this error reaches the engine as a task failure.
/// Its description never contains a filesystem path.
public struct LocalFileHandlerError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Hashable {
        case readFailed(Int32)
        case fileChanged
        case rootUnavailable(Int32)
    }

    private let code: Code

    /// Reading the file failed with an I/O error (`errno` given).
    public static func readFailed(errno: Int32) -> LocalFileHandlerError { .init(code: .readFailed(errno)) }

    /// The file became shorter while it was being sent, so the announced length cannot be met.
    public static let fileChanged = LocalFileHandlerError(code: .fileChanged)

    /// The root directory cannot be opened (`errno` given: `ENOENT` missing, `ENOTDIR` not a
    /// directory, `EACCES` not readable). See ``LocalFileHandler/Configuration/unavailableRoot``.
    public static func rootUnavailable(errno: Int32) -> LocalFileHandlerError { .init(code: .rootUnavailable(errno)) }

    /// A one-line explanation.
    public var description: String {
        switch code {
        case .readFailed(let errno): "reading the file failed (errno \(errno))"
        case .fileChanged: "the file shrank while it was being sent"
        case .rootUnavailable(let errno):
            "the root directory cannot be opened (\(String(cString: strerror(errno))), errno \(errno)); check the handler's root"
        }
    }
}
