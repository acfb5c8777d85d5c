#if Chromium
    /// An error of the Chromium connection or adapter.
    ///
    /// A struct over an open set of ``Code``s, so new cases do not break users. Compare codes:
    ///
    /// ```swift
    /// do { _ = try await browser.version() }
    /// catch let error as ChromiumError where error.code == .disconnected { /* Chromium is gone */ }
    /// ```
    public struct ChromiumError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What went wrong.
        public struct Code: RawRepresentable, Sendable, Hashable {
            /// The code's name.
            public var rawValue: String
            /// Creates a code.
            public init(rawValue: String) { self.rawValue = rawValue }

            /// Chromium exited or closed the pipe; every pending and later command throws this.
            public static let disconnected = Code(rawValue: "disconnected")
            /// Chromium answered a command with an error (``ChromiumError/protocolCode``, e.g. -32602).
            public static let protocolError = Code(rawValue: "protocolError")
            /// Chromium could not be started.
            public static let launchFailed = Code(rawValue: "launchFailed")
            /// Something did not happen within its time limit.
            public static let timedOut = Code(rawValue: "timedOut")
            /// A response body is too large for one message on this transport (see ``ChromiumAdapterConfiguration/maximumJSONBodySize``).
            public static let bodyTooLarge = Code(rawValue: "bodyTooLarge")
            /// A message from Chromium could not be parsed.
            public static let malformedMessage = Code(rawValue: "malformedMessage")
            /// A message from Chromium was longer than the connection accepts (256 MiB over the pipe,
            /// `maximumMessageSize` over a WebSocket); the connection is closed.
            public static let messageTooLarge = Code(rawValue: "messageTooLarge")
            /// A JavaScript expression threw.
            public static let evaluationFailed = Code(rawValue: "evaluationFailed")
        }

        /// What went wrong.
        public var code: Code
        /// A human-readable detail.
        public var message: String
        /// For ``Code/protocolError``: the DevTools error code (`-32602` invalid params, `-32000` server error).
        public var protocolCode: Int?

        /// Creates an error.
        package init(_ code: Code, _ message: String, protocolCode: Int? = nil) {
            self.code = code
            self.message = message
            self.protocolCode = protocolCode
        }

        /// `code: message`.
        public var description: String {
            protocolCode.map { "\(code.rawValue) \($0): \(message)" } ?? "\(code.rawValue): \(message)"
        }
    }
#endif
