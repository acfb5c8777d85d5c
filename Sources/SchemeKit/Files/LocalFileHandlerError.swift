#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a ``LocalFileHandler`` failed a task (its root is unavailable, or a file could not be read
/// after the handler started answering), or why it refused a request.
///
/// Refusals (403/404) are responses, not task failures. One of them says why in a typed error:
/// a symbolic link the ``LocalFileHandler/SymlinkPolicy`` does not follow is answered 403 with
/// ``symlinkRefused(policy:)`` as the response's ``SchemeResponse/refusalReason``, for access logs
/// and request records; it is never thrown. The other cases reach the engine as a task failure.
/// A description never contains a filesystem path.
public struct LocalFileHandlerError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Hashable {
        case readFailed(Int32)
        case fileChanged
        case rootUnavailable(Int32)
        case symlinkRefused(LocalFileHandler.SymlinkPolicy)
    }

    private let code: Code

    /// Reading the file failed with an I/O error (`errno` given).
    public static func readFailed(errno: Int32) -> LocalFileHandlerError { .init(code: .readFailed(errno)) }

    /// The file became shorter while it was being sent, so the announced length cannot be met.
    public static let fileChanged = LocalFileHandlerError(code: .fileChanged)

    /// The root directory cannot be opened (`errno` given: `ENOENT` missing, `ENOTDIR` not a
    /// directory, `EACCES` not readable). See ``LocalFileHandler/Configuration/unavailableRoot``.
    public static func rootUnavailable(errno: Int32) -> LocalFileHandlerError { .init(code: .rootUnavailable(errno)) }

    /// The request's path goes through a symbolic link that `policy` does not follow: a link out
    /// of the served directory under ``LocalFileHandler/SymlinkPolicy/followWithinRoot``, any link
    /// under ``LocalFileHandler/SymlinkPolicy/refuse``. The reason of a 403, never thrown.
    public static func symlinkRefused(policy: LocalFileHandler.SymlinkPolicy) -> LocalFileHandlerError {
        .init(code: .symlinkRefused(policy))
    }

    /// A one-line explanation.
    public var description: String {
        switch code {
        case .symlinkRefused(let policy):
            switch policy {
            case .refuse:
                "a symbolic link (symlink policy refuse; symlink policy within-root or follow serves it)"
            case .followWithinRoot, .follow:
                "a symbolic link out of the served directory (symlink policy \(policy.rawValue); symlink policy follow serves it)"
            }
        case .readFailed(let errno): "reading the file failed (errno \(errno))"
        case .fileChanged: "the file shrank while it was being sent"
        case .rootUnavailable(let errno):
            "the root directory cannot be opened (\(String(cString: strerror(errno))), errno \(errno)); check the handler's root"
        }
    }
}
