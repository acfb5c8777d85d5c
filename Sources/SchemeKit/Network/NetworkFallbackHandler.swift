public import Foundation
public import HTTPTypes
import Synchronization

/// Fetches what is not local from the network: `app://host/path` → `https://host/path`,
/// streaming the upstream status, safe headers and body to the task as they arrive.
///
/// Put it last in a chain, behind local files and caches:
///
/// ```swift
/// var rewriter = NetworkRewriter()
/// rewriter.setRule(NetworkRewriteRule(connectAddress: "203.0.113.9"), host: "api.example.com")
/// let network = NetworkFallbackHandler(upstream: NetworkUpstream(rewriter: rewriter))
/// try registry.register(SchemeHandlerChain(files, images, network), for: "app")
/// ```
///
/// ## Behaviour
/// - **Headers.** ``NetworkUpstream/forwarding`` decides, the same on every engine. By default
///   the page's `Cookie`, `Authorization`, `Forwarded`, `X-Forwarded-*` and `X-Real-IP` are not
///   sent to the origin, and the origin's `Set-Cookie` and `Access-Control-*` fields do not reach
///   the page; ``NetworkForwardingPolicy`` names the ones to let through. Hop-by-hop fields
///   (`Connection` and the fields it lists, `Keep-Alive`, `Proxy-*`, `TE`, `Trailer`,
///   `Transfer-Encoding`, `Upgrade`) never cross; `Host` is set from the target (kept as the
///   original host for IP direct connection), `Content-Length` from the body, and
///   `Accept-Encoding` by the client (it negotiates what it decodes). Every other field, and the
///   upstream status (404 and 500 included), pass through. A `Location` on the origin itself
///   (`https://api.example/login`) comes back on the page's origin (`app://localhost/login`), as
///   nginx's `proxy_redirect default` does; a relative one, or one on another origin, is kept.
/// - **Streaming.** Each upstream chunk is written as it arrives; nothing is buffered whole.
///   Stopping the task cancels the handler's Swift task, which ends the body iteration and
///   cancels the upstream request.
/// - **Failures.** Before the response head: a timeout answers `504 Gateway Timeout`, any other
///   failure `502 Bad Gateway`, with a short plain-text body — the page gets a real HTTP status
///   (`fetch()` resolves, an `<img>` fires `onerror`) instead of an engine-specific network error,
///   and ``metrics`` counts it; ``Configuration/onUpstreamFailure`` sees the error. After the
///   head: the task is *failed*, because the body is cut and the engine must not take a truncated
///   resource for a complete one.
/// - **Write-through.** With ``Configuration/writeThrough`` set, storable responses (see
///   ``NetworkWriteThrough``) are saved atomically while they stream.
public struct NetworkFallbackHandler: SchemeHandler {
    /// Options of a ``NetworkFallbackHandler``.
    public struct Configuration: Sendable {
        /// Where finished GET 200 non-image responses are saved. Default: `nil` (nothing saved).
        public var writeThrough: NetworkWriteThrough?
        /// The methods forwarded. Default: GET and HEAD. Add POST only when your engine delivers
        /// request bodies.
        public var supportedMethods: Set<HTTPRequest.Method>
        /// Called for each upstream failure (before or after the head), for logging. Default: `nil`.
        public var onUpstreamFailure: (@Sendable (_ url: URL, _ error: any Error) -> Void)?

        /// Creates options.
        ///
        /// - Parameters:
        ///   - writeThrough: The write-through directory. Default: none.
        ///   - supportedMethods: The methods forwarded. Default: GET and HEAD.
        ///   - onUpstreamFailure: A failure observer. Default: none.
        public init(
            writeThrough: NetworkWriteThrough? = nil,
            supportedMethods: Set<HTTPRequest.Method> = [.get, .head],
            onUpstreamFailure: (@Sendable (_ url: URL, _ error: any Error) -> Void)? = nil
        ) {
            self.writeThrough = writeThrough
            self.supportedMethods = supportedMethods
            self.onUpstreamFailure = onUpstreamFailure
        }
    }

    /// The client, rewriting and timeouts.
    package let upstream: NetworkUpstream
    /// The options.
    package let configuration: Configuration
    let counters = NetworkCounters()

    /// Creates a handler.
    ///
    /// - Parameters:
    ///   - upstream: The client, rewriting and timeouts. Default: URLSession, https, 10 s / 60 s.
    ///   - configuration: Write-through, methods, failure observer. Default: none, GET/HEAD, none.
    public init(upstream: NetworkUpstream = NetworkUpstream(), configuration: Configuration = Configuration()) {
        self.upstream = upstream
        self.configuration = configuration
    }

    /// Creates a handler that sends every request to one origin: `app://host/path?query` is fetched
    /// from `origin`'s scheme, host and port with the same path and query (the origin's own path
    /// is not used) — what a dev server's or a renderer's `--fallback https://origin.example` means.
    ///
    /// - Parameters:
    ///   - origin: The origin, e.g. `https://origin.example` or `http://127.0.0.1:8081`. Its
    ///     scheme defaults to `https` when missing.
    ///   - client: The HTTP client. Default: a new ``URLSessionHTTPClient``.
    ///   - forwarding: Which header fields cross. Default: no credentials or client identity to
    ///     the origin, no `Set-Cookie` or CORS fields to the page (``NetworkForwardingPolicy``).
    ///   - configuration: Write-through, methods, failure observer. Default: none, GET/HEAD, none.
    public init(
        origin: URL,
        client: any SchemeHTTPClient = URLSessionHTTPClient(),
        forwarding: NetworkForwardingPolicy = NetworkForwardingPolicy(),
        configuration: Configuration = Configuration()
    ) {
        let rule = NetworkRewriteRule(
            scheme: origin.scheme ?? "https", host: origin.host(percentEncoded: false), port: origin.port)
        let upstream = NetworkUpstream(
            client: client, rewriter: NetworkRewriter(defaultRule: rule), forwarding: forwarding)
        self.init(upstream: upstream, configuration: configuration)
    }

    /// "network".
    public var name: String { "network" }

    /// ``Configuration/supportedMethods``.
    public var supportedMethods: Set<HTTPRequest.Method> { configuration.supportedMethods }

    /// What this handler forwarded and how it ended.
    public var metrics: NetworkFallbackMetrics { counters.snapshot }

    /// Fetches the request's network equivalent and streams it to `writer`.
    ///
    /// Passes (writes nothing) only when the URL has no host to fetch from.
    public func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
    {
        let body = request.body.isEmpty ? nil : try await request.body.collect()
        guard
            let (clientRequest, target) = upstream.clientRequest(
                url: request.url,
                method: request.method,
                headerFields: request.headerFields,
                body: body
            )
        else { return .passed }

        let response: SchemeHTTPClientResponse
        do {
            response = try await upstream.client.send(clientRequest)
        } catch {
            try Task.checkCancellation()
            configuration.onUpstreamFailure?(target.logicalURL, error)
            let (head, message) = NetworkUpstream.gatewayResponse(for: error)
            counters.countGateway(head.status)
            try await writer.respond(head, body: request.method == .head ? Data() : message)
            return .handled
        }

        let head = NetworkUpstream.response(
            upstream.schemeResponse(for: response.head), from: target.logicalURL, forPage: request.url)
        try await writer.writeHead(head)
        counters.forwarded.add(1, ordering: .relaxed)

        var file: NetworkWriteThroughFile?
        // Judged on what the origin sent: a `Set-Cookie` withheld from the page still means "not
        // for everyone", so the response is not stored.
        // Kept under the page's own URL (`app://localhost/x` → `localhost/x`), where a per-host
        // file handler in the same chain looks for it next time, whatever origin answered.
        if let writeThrough = configuration.writeThrough,
            NetworkWriteThrough.isStorable(
                method: request.method, url: request.url,
                response: SchemeResponse(status: response.head.status, headerFields: response.head.headerFields))
        {
            file = writeThrough.begin(url: request.url, expectedLength: head.expectedContentLength)
        }
        do {
            for try await chunk in response.body {
                try await writer.write(chunk)
                file?.append(chunk)
            }
            try Task.checkCancellation()
        } catch {
            file?.discard()
            if error is CancellationError || Task.isCancelled { throw error }
            configuration.onUpstreamFailure?(target.logicalURL, error)
            counters.cutMidBody.add(1, ordering: .relaxed)
            try await writer.fail(error)
            return .handled
        }
        if let file, file.commit() { counters.storedWriteThrough.add(1, ordering: .relaxed) }
        try await writer.finish()
        return .handled
    }
}
