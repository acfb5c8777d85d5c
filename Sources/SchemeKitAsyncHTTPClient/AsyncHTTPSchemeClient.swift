// Built with the package trait `AsyncHTTPClient` (enabled by `Server`); without it the module is empty.
#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import HTTPTypes
    import NIOCore
    import NIOFoundationCompat
    import NIOHTTP1
    import NIOHTTPCompression
    public import SchemeKit

    /// A `SchemeHTTPClient` on [AsyncHTTPClient](https://github.com/swift-server/async-http-client):
    /// one request to the origin per request, read only as fast as the consumer reads.
    ///
    /// Use it for SchemeKit's `NetworkFallbackHandler` and `Preloader` on Linux, where
    /// `URLSessionHTTPClient` cannot pause a transfer (swift-corelibs-foundation's `suspend()`
    /// restarts it) and so splits a GET into `Range` windows, which changes what the origin sees and
    /// cannot bound memory when the origin ignores `Range`. `schemeserve --fallback` uses it.
    ///
    /// ```swift
    /// import SchemeKitAsyncHTTPClient
    ///
    /// let network = NetworkFallbackHandler(origin: URL(string: "https://origin.example")!, client: AsyncHTTPSchemeClient())
    /// ```
    ///
    /// Behaviour, the same as `URLSessionHTTPClient`'s where the two can agree:
    /// - **Back-pressure.** The body is AsyncHTTPClient's: SwiftNIO reads the socket only when the
    ///   consumer asks for the next chunk, so one response holds about one read (tens of KiB, at most
    ///   100 times that once decoded) plus the kernel's socket buffers, however large the body and
    ///   however slow the consumer. The request the origin gets is the one asked for: no `Range` is
    ///   added.
    /// - **No caching, no cookies, no redirects.** Nothing is stored; a 3xx reaches the caller as
    ///   is, with its `Location`.
    /// - **Content decoding.** `Accept-Encoding: deflate, gzip` is sent, and a `gzip` or `deflate`
    ///   body is decoded (at most 100 decoded bytes per received byte, against decompression bombs;
    ///   past it the body fails); `Content-Encoding` and `Content-Length` are then removed from the
    ///   head so they describe the bytes delivered.
    /// - **Timeouts.** `SchemeHTTPClientRequest.connectTimeout` bounds the wait for the head
    ///   (connecting included) and throws a `SchemeHTTPClientError` of kind `.timeout`;
    ///   `SchemeHTTPClientRequest.timeout` bounds the whole exchange: a body still being read after it
    ///   ends with the same kind of error, and the connection is closed.
    /// - **Failures.** A refused or broken connection is `.connectionFailed` at once (connecting is
    ///   not retried, so a dev server that is down answers 502 straight away); an unparsable answer
    ///   is `.invalidResponse`.
    /// - **Cancellation.** Cancelling the Swift task awaiting ``send(_:)`` or reading the body, or
    ///   dropping the body, cancels the request: the connection is closed.
    /// - **`Host` header.** A `Host` field in the request is sent as is (IP direct connection). TLS
    ///   to an IP address is validated against that address, not the `Host`.
    /// - **Lifetime.** Each client owns an AsyncHTTPClient `HTTPClient` on SwiftNIO's shared event
    ///   loops (its connection pool), shut down when the client is released; a response being read
    ///   keeps its client alive.
    public final class AsyncHTTPSchemeClient: SchemeHTTPClient {
        private let httpClient: HTTPClient

        /// Creates a client with a connection pool of its own.
        ///
        /// - Parameter maximumConnectionsPerHost: Concurrent HTTP/1.1 connections to one host (a soft
        ///   limit: requests beyond it wait for a free connection). Default: 6.
        public init(maximumConnectionsPerHost: Int = 6) {
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                decompression: .enabled(limit: .ratio(100))
            )
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(1, maximumConnectionsPerHost)
            // Fail a refused connection at once, as URLSession does: a fallback to a dev server that is
            // down answers 502 now rather than a 504 after the connect timeout.
            configuration.connectionPool.retryConnectionEstablishment = false
            httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }

        deinit {
            // No response is being read (each keeps its client alive): shutting down closes idle connections.
            httpClient.shutdown().whenComplete { _ in }
        }

        /// Sends `request`; returns when the response head arrived.
        ///
        /// - Throws: `SchemeHTTPClientError` (timeout, connection failed, cancelled, invalid response).
        ///   The body ends with the same error type when the exchange breaks later.
        public func send(_ request: SchemeHTTPClientRequest) async throws -> SchemeHTTPClientResponse {
            try Task.checkCancellation()
            let started = ContinuousClock.now
            var outgoing = HTTPClientRequest(url: request.url.absoluteString)
            outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
            for field in request.headerFields {
                outgoing.headers.add(name: field.name.rawName, value: field.value)
            }
            if let body = request.body { outgoing.body = .bytes(ByteBuffer(data: body)) }

            let headWait = min(request.connectTimeout, request.timeout)
            let response: HTTPClientResponse
            do {
                response = try await httpClient.execute(outgoing, deadline: .now() + TimeAmount(headWait))
            } catch {
                throw Self.map(error, headWait: headWait)
            }
            let reader = AsyncHTTPBodyReader(
                body: response.body, deadline: started + request.timeout, timeout: request.timeout, client: self)
            return SchemeHTTPClientResponse(
                head: Self.head(from: response),
                body: AsyncThrowingStream(unfolding: { try await reader.next() })
            )
        }

        /// The response head as swift-http-types sees it, without the coding AsyncHTTPClient decoded.
        static func head(from response: HTTPClientResponse) -> HTTPResponse {
            var fields = HTTPFields()
            for (name, value) in response.headers {
                guard let name = HTTPField.Name(name) else { continue }
                fields.append(HTTPField(name: name, value: value))
            }
            // The decompressor decodes exactly these two codings; anything else arrives as sent.
            if let coding = fields[.contentEncoding]?.lowercased(), coding == "gzip" || coding == "deflate" {
                fields[.contentEncoding] = nil
                fields[.contentLength] = nil
            }
            return HTTPResponse(
                status: HTTPResponse.Status(
                    code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase),
                headerFields: fields
            )
        }

        /// A failure of AsyncHTTPClient as a `SchemeHTTPClientError`; `headWait` names the head's
        /// deadline in the message of a timeout before the head.
        static func map(_ error: any Error, headWait: Duration? = nil) -> SchemeHTTPClientError {
            if let error = error as? SchemeHTTPClientError { return error }
            if error is CancellationError { return SchemeHTTPClientError(.cancelled) }
            if error is HTTPParserError {
                return SchemeHTTPClientError(.invalidResponse, detail: String(describing: error))
            }
            guard let error = error as? HTTPClientError else {
                return SchemeHTTPClientError(.connectionFailed, detail: String(describing: error))
            }
            switch error {
            case .deadlineExceeded:
                let detail = headWait.map { "no response head within \($0)" } ?? "deadline exceeded"
                return SchemeHTTPClientError(.timeout, detail: detail)
            case .connectTimeout, .tlsHandshakeTimeout, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout:
                return SchemeHTTPClientError(.timeout, detail: error.description)
            case .cancelled:
                return SchemeHTTPClientError(.cancelled)
            default:
                return SchemeHTTPClientError(.connectionFailed, detail: error.description)
            }
        }
    }

    extension TimeAmount {
        /// `duration` in nanoseconds (saturating).
        init(_ duration: Duration) {
            let (seconds, attoseconds) = duration.components
            let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            self = .nanoseconds(overflow ? .max : product.addingReportingOverflow(attoseconds / 1_000_000_000).0)
        }
    }
#endif
