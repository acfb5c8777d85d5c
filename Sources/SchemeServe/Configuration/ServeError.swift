// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    /// Why schemeserve could not start.
    public struct ServeError: Error, Sendable, CustomStringConvertible, Equatable {
        private enum Kind: Equatable, Sendable {
            case notADirectory(String)
            case unavailable(String)
            case invalidOption(String)
            case bindFailed(String, Int, String)
        }

        private let kind: Kind

        /// The served path is not an existing directory.
        package static func notADirectory(_ path: String) -> ServeError { ServeError(kind: .notADirectory(path)) }
        /// An option needs a handler that is not available in this build.
        package static func unavailable(_ option: String) -> ServeError { ServeError(kind: .unavailable(option)) }
        /// An option's value is invalid.
        package static func invalidOption(_ message: String) -> ServeError { ServeError(kind: .invalidOption(message)) }
        /// The server could not listen (port in use, address not available).
        package static func bindFailed(address: String, port: Int, reason: String) -> ServeError {
            ServeError(kind: .bindFailed(address, port, reason))
        }

        /// Whether this is a usage error (exit code 64) rather than a runtime failure.
        public var isUsageError: Bool {
            if case .bindFailed = kind { return false }
            return true
        }

        /// A one-line message for the terminal.
        public var description: String {
            switch kind {
            case .notADirectory(let path): "not a directory: \(path)"
            case .unavailable(let option): "\(option) is not available in this build"
            case .invalidOption(let message): message
            case .bindFailed(let address, let port, let reason): "cannot listen on \(address):\(port): \(reason)"
            }
        }
    }
#endif
