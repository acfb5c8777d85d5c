/// An error of an engine: its process, the connection that drives it, a page or web view, or the
/// scheme adapter in front of it.
///
/// One type on every engine (`SchemeKitChromium`, `SchemeKitFirefox` and `SchemeKitWebKitGTK`
/// throw it), so code that drives more than one engine catches one error. A struct over an open
/// set of ``Code``s, so new codes do not break users. Compare codes:
///
/// ```swift
/// do { try await page.navigate(to: "https://app.localhost/") }
/// catch let error as EngineError where error.code == .disconnected { /* the browser is gone */ }
/// ```
public struct EngineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case disconnected, closed, launchFailed, connectFailed, protocolError, timedOut, navigationFailed
            case evaluationFailed, operationFailed, invalidRequest, bodyTooLarge, messageTooLarge
            case malformedMessage
        }

        private let base: Base

        private init(_ base: Base) { self.base = base }

        /// The engine is gone: the browser exited or closed its connection, or WebKitGTK's web
        /// process terminated. Every pending and later call on it throws this.
        public static let disconnected = Code(.disconnected)
        /// The page or web view session was closed; calls on it throw this.
        public static let closed = Code(.closed)
        /// The engine could not be started: the executable failed to launch or never answered, or
        /// GTK could not open a display (run WebKitGTK under `xvfb-run -a`).
        public static let launchFailed = Code(.launchFailed)
        /// A connection to a running browser could not open a session.
        public static let connectFailed = Code(.connectFailed)
        /// The browser answered a command with an error; ``EngineError/protocolCode`` names it.
        public static let protocolError = Code(.protocolError)
        /// Something did not happen within its time limit.
        public static let timedOut = Code(.timedOut)
        /// A page load failed (a network error, an unreachable URL); the message says why.
        public static let navigationFailed = Code(.navigationFailed)
        /// A JavaScript expression threw, its promise rejected, or its result could not be read.
        public static let evaluationFailed = Code(.evaluationFailed)
        /// The engine could not do what it was asked: take a snapshot, print a PDF, clear website
        /// data. The message names the operation and the engine's reason.
        public static let operationFailed = Code(.operationFailed)
        /// The engine handed over a request SchemeKit cannot represent (a method that is not an HTTP
        /// token, a URL that does not parse); the request fails with this error.
        public static let invalidRequest = Code(.invalidRequest)
        /// A body is over a limit: a response body larger than one message can carry, or a request
        /// body over the adapter's `maximumRequestBodySize`. The message names the limit and the
        /// setting.
        public static let bodyTooLarge = Code(.bodyTooLarge)
        /// A command, or a message from the browser, is over the connection's maximum message size;
        /// the connection is closed.
        public static let messageTooLarge = Code(.messageTooLarge)
        /// A message from the browser could not be parsed.
        public static let malformedMessage = Code(.malformedMessage)

        /// The code's name (`disconnected`).
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// A human-readable detail.
    public var message: String
    /// For ``Code/protocolError``: the browser's own error code, as text. The DevTools protocol's
    /// numbers (`-32602` invalid params, `-32000` server error) on Chromium; WebDriver BiDi's names
    /// (`no such request`, `invalid argument`) on Firefox. `nil` otherwise.
    public var protocolCode: String?

    /// Creates an error.
    package init(_ code: Code, _ message: String, protocolCode: String? = nil) {
        self.code = code
        self.message = message
        self.protocolCode = protocolCode
    }

    /// `code: message`, with the protocol's error code in parentheses when there is one.
    public var description: String {
        protocolCode.map { "\(code) (\($0)): \(message)" } ?? "\(code): \(message)"
    }
}
