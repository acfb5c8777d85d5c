import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``SchemeHTTPClient``: `URLSession` (FoundationNetworking on Linux), streaming.
///
/// ``send(_:)`` returns as soon as the response head arrives; body chunks flow through the
/// response's `AsyncThrowingStream` as URLSession delivers them (a `URLSessionDataDelegate`, so
/// it works on Linux, where `URLSession.bytes(for:)` does not exist).
///
/// Behaviour, chosen for a proxy sitting between a web engine and the network:
/// - **No caching, no cookies.** An ephemeral session with no `URLCache` and no cookie storage:
///   the engine and SchemeKit's own caches decide what is kept; `Set-Cookie` headers are passed
///   through, never stored.
/// - **Redirects are not followed.** A 3xx reaches the caller as is, with its `Location`, so the
///   engine sees the same redirect a browser would (and a handler never silently serves another
///   URL's bytes under this one).
/// - **Content decoding.** URLSession decodes `gzip`/`deflate` bodies on its own; the client then
///   removes `Content-Encoding` and `Content-Length` from the head so they describe the bytes
///   actually delivered.
/// - **Timeouts.** ``SchemeHTTPClientRequest/connectTimeout`` bounds the wait for the head and
///   ``SchemeHTTPClientRequest/timeout`` the whole exchange; either throws (or ends the body
///   with) a ``SchemeHTTPClientError`` of kind ``SchemeHTTPClientError/Kind/timeout``.
/// - **Cancellation.** Cancelling the Swift task awaiting ``send(_:)`` or iterating the body, or
///   dropping the body stream, cancels the `URLSessionTask`: the connection is closed.
/// - **`Host` header.** A `Host` field in the request is sent as is (IP direct connection). On
///   Linux (libcurl) this works for plain HTTP; URLSession on Apple platforms may override the
///   field, and TLS to an IP address needs a client that validates the certificate against the
///   original host — plug such a client when you need IP direct connection over HTTPS.
/// - **Memory (back-pressure).** The body is pulled, never pushed: each response buffers at most
///   `bodyBufferLimit` unread bytes (plus what is in flight), then pauses the upstream until the
///   consumer has drained the buffer to a quarter of it. On Apple platforms a pause suspends the
///   `URLSessionTask`. On Linux, swift-corelibs-foundation cannot pause a transfer (`suspend()` /
///   `resume()` restarts it from its first byte) and libcurl reads ahead of the delegate queue
///   without limit (measured: hundreds of MiB queued in a busy process). So on Linux a GET
///   without a `Range` of its own is fetched in windows of `bodyBufferLimit` bytes:
///   `Range: bytes=0-(limit-1)` first, then `bytes=N-M` with `If-Range` (the strong `ETag`, else
///   `Last-Modified`) each time the consumer has drained the buffer, on the same keep-alive
///   connection. The caller sees the `200` it asked for (status 200, `Content-Length` the
///   complete length, no `Content-Range`). A window answered with anything but a `206` starting
///   at the right byte fails the body (the representation changed); a `416` to the first window
///   (an empty body) is asked again without one. An origin that ignores `Range` answers `200` and
///   is read as before: if it is resumable (`Accept-Ranges: bytes` and a validator) a pause
///   cancels the transfer and continues it with a ranged request; if not, a consumer slower than
///   the network lets its chunks queue, as libcurl offers no other way to stop reading.
public final class URLSessionHTTPClient: SchemeHTTPClient {
    private let session: URLSession
    private let delegate: URLSessionClientDelegate
    private let limits: URLSessionExchange.BodyLimits

    /// Creates a client with its own ephemeral session.
    ///
    /// - Parameters:
    ///   - maximumConnectionsPerHost: Concurrent connections to one host. Default: 6.
    ///   - bodyBufferLimit: The most unread body bytes one response buffers before its upstream is
    ///     paused (the high watermark; reading resumes at a quarter of it). Default: 4 MiB.
    public init(maximumConnectionsPerHost: Int = 6, bodyBufferLimit: Int = 4 << 20) {
        let high = max(1, bodyBufferLimit)
        self.limits = URLSessionExchange.BodyLimits(highWatermark: high, lowWatermark: high / 4)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
        // Our own timers enforce the request's timeouts; keep URLSession's out of the way.
        configuration.timeoutIntervalForRequest = 24 * 3600
        configuration.timeoutIntervalForResource = 24 * 3600
        let delegate = URLSessionClientDelegate()
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        // Requests still running (their bodies being read) finish; then the session lets go of its delegate.
        session.finishTasksAndInvalidate()
    }

    /// Sends `request`; returns when the response head arrived.
    ///
    /// - Throws: ``SchemeHTTPClientError`` (timeout, connection failed, cancelled, invalid
    ///   response). The body stream ends with the same error type when the exchange breaks later.
    public func send(_ request: SchemeHTTPClientRequest) async throws -> SchemeHTTPClientResponse {
        try Task.checkCancellation()
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        urlRequest.httpShouldHandleCookies = false
        urlRequest.timeoutInterval = max(1, Self.seconds(request.timeout))
        for field in request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        urlRequest.httpBody = request.body

        let session = self.session
        let delegate = self.delegate
        let exchange = URLSessionExchange(
            request: urlRequest,
            connectTimeout: request.connectTimeout,
            timeout: request.timeout,
            limits: limits
        ) { request, exchange in
            let task = session.dataTask(with: request)
            delegate.register(exchange, for: task.taskIdentifier)
            return task
        }
        return try await exchange.start()
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

/// Routes URLSession's delegate callbacks to the exchange of each task.
final class URLSessionClientDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Locked([Int: URLSessionExchange]())

    func register(_ exchange: URLSessionExchange, for identifier: Int) {
        exchanges.withLock { $0[identifier] = exchange }
    }

    private func exchange(for task: URLSessionTask) -> URLSessionExchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        exchange(for: dataTask)?.receive(head: response, task: dataTask)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.receive(data: data, task: dataTask)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Never follow: the 3xx itself becomes the response.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        if let dataTask = task as? URLSessionDataTask { exchange?.complete(error: error, task: dataTask) }
    }
}
