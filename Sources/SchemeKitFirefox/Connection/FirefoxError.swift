#if Firefox
    /// An error of the Firefox connection, its pages or the adapter.
    ///
    /// A struct over a ``Code`` that wraps a private enum, so new cases do not break users. Compare codes:
    ///
    /// ```swift
    /// do { try await page.navigate(to: "https://app.localhost/") }
    /// catch let error as FirefoxError where error.code == .disconnected { /* Firefox is gone */ }
    /// ```
    public struct FirefoxError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What went wrong.
        public struct Code: Sendable, Hashable, CustomStringConvertible {
            private enum Base: String, Sendable, Hashable {
                case disconnected, protocolError, launchFailed, connectFailed, timedOut, bodyTooLarge
                case messageTooLarge, malformedMessage, evaluationFailed
            }

            private let base: Base

            private init(_ base: Base) { self.base = base }

            /// Firefox exited or the WebSocket closed; every pending and later command throws this.
            public static let disconnected = Code(.disconnected)
            /// Firefox answered a command with an error (the description names it,
            /// such as `no such request`).
            public static let protocolError = Code(.protocolError)
            /// Firefox could not be started, or did not print its WebDriver BiDi address in time.
            public static let launchFailed = Code(.launchFailed)
            /// ``FirefoxBrowser/connect(to:maximumMessageSize:timeout:)`` could not open a session.
            public static let connectFailed = Code(.connectFailed)
            /// Something did not happen within its time limit.
            public static let timedOut = Code(.timedOut)
            /// A body is over a limit: a response body larger than what one message may carry, or a
            /// request body over ``FirefoxAdapterConfiguration/maximumRequestBodySize``; the message
            /// names the limit and the setting.
            public static let bodyTooLarge = Code(.bodyTooLarge)
            /// A command (or a message from Firefox) is over the connection's maximum message size.
            public static let messageTooLarge = Code(.messageTooLarge)
            /// A message from Firefox could not be parsed; the connection was closed.
            public static let malformedMessage = Code(.malformedMessage)
            /// A JavaScript expression threw or its promise rejected.
            public static let evaluationFailed = Code(.evaluationFailed)

            /// The code's name (`disconnected`).
            public var description: String { base.rawValue }
        }

        /// What went wrong.
        public var code: Code
        /// A human-readable detail.
        public var message: String
        /// For ``Code/protocolError``: WebDriver BiDi's error code (`no such request`, `invalid argument`).
        package var protocolError: String?

        /// Creates an error.
        package init(_ code: Code, _ message: String, protocolError: String? = nil) {
            self.code = code
            self.message = message
            self.protocolError = protocolError
        }

        /// `code: message`, with the BiDi error code when there is one.
        public var description: String {
            protocolError.map { "\(code) (\($0)): \(message)" } ?? "\(code): \(message)"
        }
    }
#endif
