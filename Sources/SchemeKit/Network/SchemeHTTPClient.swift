public import Foundation

/// A small HTTP client: what the network fallback, preloading and package downloads use.
///
/// The default implementation is ``URLSessionHTTPClient``; an embedder can plug its own
/// (AsyncHTTPClient, a test double).
///
/// ## Implementation requirements
/// - Return as soon as the response head arrives; deliver the body as it arrives through
///   ``SchemeHTTPClientResponse/body``, never buffered whole.
/// - When the Swift task iterating the body is cancelled, or the body sequence is dropped,
///   cancel the upstream request.
/// - Enforce ``SchemeHTTPClientRequest/connectTimeout`` and ``SchemeHTTPClientRequest/timeout``
///   by throwing.
public protocol SchemeHTTPClient: Sendable {
    /// Sends `request` and returns when the response head arrived.
    func send(_ request: SchemeHTTPClientRequest) async throws -> SchemeHTTPClientResponse
}

/// A request for a ``SchemeHTTPClient``.
public struct SchemeHTTPClientRequest: Sendable {
    /// The absolute URL to fetch (`https://…`).
    public var url: URL
    /// The method. Default: GET.
    public var method: HTTPRequest.Method
    /// Header fields to send. A `Host` field overrides the URL's host (IP direct connection).
    public var headerFields: HTTPFields
    /// The body. Default: none.
    public var body: Data?
    /// How long to wait for the response head. Default: 10 s.
    public var connectTimeout: Duration
    /// How long the whole exchange may take, body included. Default: 60 s.
    public var timeout: Duration

    /// Creates a request.
    public init(
        url: URL,
        method: HTTPRequest.Method = .get,
        headerFields: HTTPFields = [:],
        body: Data? = nil,
        connectTimeout: Duration = .seconds(10),
        timeout: Duration = .seconds(60)
    ) {
        self.url = url
        self.method = method
        self.headerFields = headerFields
        self.body = body
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }
}

/// A response from a ``SchemeHTTPClient``: the head, then the body as it arrives.
public struct SchemeHTTPClientResponse: Sendable {
    /// Status and header fields.
    public var head: HTTPResponse
    /// The body chunks; iterate once. Ending iteration early cancels the upstream request.
    public var body: AsyncThrowingStream<Data, any Error>

    /// Creates a response.
    public init(head: HTTPResponse, body: AsyncThrowingStream<Data, any Error>) {
        self.head = head
        self.body = body
    }
}
