/// Why a ``SchemeHTTPClient`` exchange failed.
///
/// A struct wrapping a private enum so new cases can be added without breaking callers; match on
/// the static properties (`error.kind == .timeout`) or use the `is…` helpers.
///
/// ``NetworkFallbackHandler`` maps a ``Kind/timeout`` before the response head to
/// `504 Gateway Timeout` and every other failure before the head to `502 Bad Gateway`.
public struct SchemeHTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Code: Hashable, Sendable {
        case timeout
        case connectionFailed
        case cancelled
        case invalidResponse
    }

    /// The category of a ``SchemeHTTPClientError``.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate let code: Code

        /// The connect timeout (time to the response head) or the overall timeout expired.
        public static let timeout = Kind(code: .timeout)
        /// The connection could not be made or broke: refused, reset, DNS, TLS.
        public static let connectionFailed = Kind(code: .connectionFailed)
        /// The request was cancelled by its caller (the consuming Swift task or the body stream).
        public static let cancelled = Kind(code: .cancelled)
        /// The server's answer was not a valid HTTP response.
        public static let invalidResponse = Kind(code: .invalidResponse)

        /// A one-word name for logs.
        public var description: String {
            switch code {
            case .timeout: "timeout"
            case .connectionFailed: "connection failed"
            case .cancelled: "cancelled"
            case .invalidResponse: "invalid response"
            }
        }
    }

    /// The category.
    public let kind: Kind
    /// A short human-readable detail (the underlying error or which timeout expired).
    public let detail: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: The category.
    ///   - detail: A short explanation. Default: empty.
    public init(_ kind: Kind, detail: String = "") {
        self.kind = kind
        self.detail = detail
    }

    /// Whether this is a timeout.
    package var isTimeout: Bool { kind == .timeout }

    /// "timeout: no response head within 0.3 seconds".
    public var description: String {
        detail.isEmpty ? "HTTP client: \(kind)" : "HTTP client: \(kind): \(detail)"
    }
}
