public import Foundation
public import HTTPTypes
import Synchronization

/// Fetches what is not local from the network: `app://host/path` → `https://host/path` for the
/// hosts the app allows, or every request from one origin; streaming the upstream status, safe
/// headers and body to the task as they arrive.
///
/// Put it last in a chain, behind local files and caches:
///
/// ```swift
/// // app://api.example.com/v1 → https://api.example.com/v1; any other host: 403, never fetched.
/// let network = NetworkFallbackHandler(allowedHosts: ["api.example.com", "*.cdn.example"])
/// try registry.register(SchemeHandlerChain(files, images, network), for: "app")
/// // Or every request from one origin (what `--fallback` means):
/// let dev = NetworkFallbackHandler(origin: URL(string: "http://127.0.0.1:8081")!)
/// ```
///
/// ## Behaviour
/// - **Hosts.** A page — or markup injected into it — names the host of `app://HOST/…`, so a
///   handler that fetched any host would let it reach `app://10.0.0.5/admin` or the cloud
///   metadata service at `169.254.169.254`, natively, past the browser's CORS and Local Network
///   Access checks. A host that comes from the request must be in ``allowedHosts``; a name must
///   resolve to public addresses only, or to addresses listed themselves (see
///   ``NetworkAllowedHosts``). A refused request is answered `403` with a body that names the rule
///   and a ``SchemeResponse/refusalReason`` (``NetworkFallbackError``), counted in
///   ``NetworkFallbackMetrics/refusedHosts``, and never fetched. A destination the app named — the
///   origin of ``init(origin:client:forwarding:configuration:)``, a rewrite rule's `host` or
///   `connectAddress`, a rule set for the host — is reached as given.
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
    /// The hosts a request may name (``NetworkAllowedHosts``).
    public var allowedHosts: NetworkAllowedHosts { gate.allowedHosts }
    /// Where ``allowedHosts`` is enforced.
    let gate: NetworkHostGate
    let counters = NetworkCounters()

    /// Creates a handler that fetches `scheme://host/path` from the network for the hosts
    /// `allowedHosts` allows, rewritten by `upstream`'s rules (`https://host/path` by default).
    ///
    /// There is no default: a fallback that fetched any host a page names would reach the app's
    /// private networks. `["*"]` allows any name that resolves to public addresses only.
    ///
    /// - Parameters:
    ///   - allowedHosts: The hosts a request may name, such as `["api.example.com",
    ///     "*.cdn.example"]`; IP literals and private addresses only when listed themselves.
    ///   - upstream: The client, rewriting and timeouts. Default: URLSession, https, 10 s / 60 s.
    ///   - configuration: Write-through, methods, failure observer. Default: none, GET/HEAD, none.
    public init(
        allowedHosts: NetworkAllowedHosts, upstream: NetworkUpstream = NetworkUpstream(),
        configuration: Configuration = Configuration()
    ) {
        self.gate = NetworkHostGate(allowedHosts: allowedHosts, resolver: upstream.resolver)
        self.upstream = upstream
        self.configuration = configuration
    }

    /// Creates a handler that sends every request to one origin: `app://host/path?query` is fetched
    /// from `origin`'s scheme, host and port with the same path and query (the origin's own path
    /// is not used) — what a dev server's or a renderer's `--fallback https://origin.example` means.
    ///
    /// The origin is reached as given, loopback and private addresses included: the app named it.
    /// ``allowedHosts`` is exactly its host, for `http` and `https` URLs (fetched as they are).
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
        self.init(
            allowedHosts: NetworkAllowedHosts(validOf: origin.host(percentEncoded: true).map { [$0] } ?? []),
            upstream: upstream, configuration: configuration)
    }

    /// "network".
    public var name: String { "network" }

    /// ``Configuration/supportedMethods``.
    public var supportedMethods: Set<HTTPRequest.Method> { configuration.supportedMethods }

    /// What this handler forwarded and how it ended.
    public var metrics: NetworkFallbackMetrics { counters.snapshot }

    /// Fetches the request's network equivalent and streams it to `writer`; answers 403 for a host
    /// that is not allowed.
    ///
    /// Passes (writes nothing) only when the URL has no host to fetch from.
    public func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
    {
        guard
            let (unchecked, target) = upstream.clientRequest(
                url: request.url,
                method: request.method,
                headerFields: request.headerFields,
                body: nil
            )
        else { return .passed }
        var clientRequest: SchemeHTTPClientRequest
        switch await gate.admit(unchecked, to: target) {
        case .admitted(let admitted):
            clientRequest = admitted
        case .refused(let reason):
            counters.refusedHosts.add(1, ordering: .relaxed)
            let refusal = Self.refusal(reason, for: request)
            try await writer.respond(refusal.head, body: refusal.body)
            return .handled
        case .unresolved(let error):
            return try await respondToUpstreamFailure(error, of: target.logicalURL, request: request, writer: writer)
        }
        // The page's content is read only for a request that goes out.
        if !request.body.isEmpty { clientRequest.body = try await request.body.collect() }

        let response: SchemeHTTPClientResponse
        do {
            response = try await upstream.client.send(clientRequest)
        } catch {
            return try await respondToUpstreamFailure(error, of: target.logicalURL, request: request, writer: writer)
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

    /// The 502 or 504 for an upstream that failed before its head (a lookup included), reported to
    /// ``Configuration/onUpstreamFailure`` and counted; rethrows when the task was cancelled.
    private func respondToUpstreamFailure(
        _ error: any Error, of url: URL, request: SchemeRequest, writer: some SchemeResponseWriter
    ) async throws -> SchemeHandlerOutcome {
        try Task.checkCancellation()
        configuration.onUpstreamFailure?(url, error)
        let (head, message) = NetworkUpstream.gatewayResponse(for: error)
        counters.countGateway(head.status)
        try await writer.respond(head, body: request.method == .head ? Data() : message)
        return .handled
    }

    /// The 403 for a host that is not allowed: `Forbidden: <reason>`, with the reason as the head's
    /// ``SchemeResponse/refusalReason`` (no body for HEAD).
    static func refusal(_ reason: NetworkFallbackError, for request: SchemeRequest) -> SchemeCollectedResponse {
        var (head, body) = SchemeResponse.plainText(.forbidden, "Forbidden: \(reason)\n")
        head.refusalReason = reason
        return SchemeCollectedResponse(head: head, body: request.method == .head ? Data() : body)
    }
}
