import Foundation
import HTTPTypes

/// How requests reach the network: the HTTP client, the URL rewriting, which header fields cross
/// (``NetworkForwardingPolicy``) and the timeouts. Shared by ``NetworkFallbackHandler`` and
/// ``Preloader`` so both fetch the same way.
public struct NetworkUpstream: Sendable {
    /// The client. Default: a new ``URLSessionHTTPClient``.
    public var client: any SchemeHTTPClient
    /// The URL rewriting. Default: `scheme://…` → `https://…`.
    public var rewriter: NetworkRewriter
    /// Which header fields reach the origin and come back to the page. Default: no credentials,
    /// no client identity, no hop-by-hop fields to the origin; no `Set-Cookie` and no
    /// `Access-Control-*` to the page (see ``NetworkForwardingPolicy``).
    public var forwarding: NetworkForwardingPolicy
    /// The longest wait for the upstream response head. Default: 10 s.
    public var connectTimeout: Duration
    /// The longest the whole upstream exchange may take, body included. Default: 60 s.
    public var timeout: Duration
    /// How host names are looked up before ``NetworkAllowedHosts`` checks their addresses.
    /// Default: `getaddrinfo`; tests give names addresses of their own.
    package var resolver: NetworkResolver = .system

    /// Creates an upstream.
    ///
    /// - Parameters:
    ///   - client: The HTTP client. Default: a new ``URLSessionHTTPClient``.
    ///   - rewriter: The URL rewriting. Default: https, same host and path.
    ///   - forwarding: Which header fields cross. Default: ``NetworkForwardingPolicy/init(forwardedRequestFields:passedResponseFields:)``
    ///     with nothing named.
    ///   - connectTimeout: The wait for the response head. Default: 10 s.
    ///   - timeout: The whole exchange. Default: 60 s.
    public init(
        client: any SchemeHTTPClient = URLSessionHTTPClient(),
        rewriter: NetworkRewriter = NetworkRewriter(),
        forwarding: NetworkForwardingPolicy = NetworkForwardingPolicy(),
        connectTimeout: Duration = .seconds(10),
        timeout: Duration = .seconds(60)
    ) {
        self.client = client
        self.rewriter = rewriter
        self.forwarding = forwarding
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }

    /// The client request for a scheme request's URL, method, header fields and body; `nil` when
    /// the URL has no host.
    ///
    /// The header fields are those ``forwarding`` sends; `Host` is set when the rewrite connects to
    /// an IP address, and `Accept-Encoding: identity` with a `Range`.
    func clientRequest(
        url: URL,
        method: HTTPRequest.Method,
        headerFields: HTTPFields,
        body: Data?
    ) -> (SchemeHTTPClientRequest, NetworkRewriter.Target)? {
        guard let target = rewriter.target(for: url) else { return nil }
        var fields = forwarding.requestFields(headerFields)
        if let host = target.hostHeader { fields[HTTPField.Name("Host")!] = host }
        // The clients decode gzip and deflate, so the page gets the identity coding: the bytes a
        // `Range` names are the identity's, which only an origin not offered a coding serves (one
        // that gzips would answer a whole 200 of compressed bytes).
        if fields[.range] != nil { fields[.acceptEncoding] = "identity" }
        let request = SchemeHTTPClientRequest(
            url: target.url,
            method: method,
            headerFields: fields,
            body: body,
            connectTimeout: connectTimeout,
            timeout: timeout
        )
        return (request, target)
    }

    /// The response head to give the engine for an upstream head: the status and the header
    /// fields ``forwarding`` passes.
    func schemeResponse(for head: HTTPResponse) -> SchemeResponse {
        SchemeResponse(status: head.status, headerFields: forwarding.responseFields(head.headerFields))
    }

    /// `response`, from `origin` (a target's ``NetworkRewriter/Target/logicalURL``), as the page
    /// that asked at `page` gets it: a `Location` on the origin itself moved to the page's origin
    /// (``RedirectLocation``).
    static func response(_ response: SchemeResponse, from origin: URL, forPage page: URL) -> SchemeResponse {
        guard let location = response.headerFields[.location],
            let moved = RedirectLocation.moved(location, from: origin, to: page)
        else { return response }
        var response = response
        response.headerFields[.location] = moved
        return response
    }

    /// The gateway answer for an upstream failure before the head: 504 for a timeout, else 502,
    /// with a short plain-text body that reveals no internals.
    static func gatewayResponse(for error: any Error) -> (SchemeResponse, Data) {
        if let error = error as? SchemeHTTPClientError, error.isTimeout {
            return SchemeResponse.plainText(
                .gatewayTimeout, "Gateway Timeout: the upstream server did not answer in time\n")
        }
        return SchemeResponse.plainText(.badGateway, "Bad Gateway: the upstream server could not be reached\n")
    }
}
