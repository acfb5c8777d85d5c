import Foundation
import SchemeKit
import SchemeKitTesting
import Testing

/// What crosses the network fallback, against the real origin: it echoes the request fields it
/// got, and answers with a cookie and a CORS grant of its own.
struct NetworkForwardingPolicyTests {
    /// The page's request: credentials, client identity, hop-by-hop fields, and one plain field.
    static let pageFields: [(String, String)] = [
        ("Cookie", "other-app-session=secret"),
        ("Authorization", "Bearer page-token"),
        ("Proxy-Authorization", "Basic eDp5"),
        ("X-Forwarded-For", "203.0.113.7"),
        ("X-Forwarded-Host", "evil.example"),
        ("X-Forwarded-Proto", "https"),
        ("Forwarded", "for=203.0.113.7"),
        ("X-Real-IP", "203.0.113.7"),
        ("Connection", "X-Secret"),
        ("X-Secret", "1"),
        ("TE", "trailers"),
        ("X-Plain", "kept"),
    ]

    /// Request fields that must not reach the origin by default.
    static let withheldRequestFields = [
        "cookie", "authorization", "proxy-authorization", "x-forwarded-for", "x-forwarded-host",
        "x-forwarded-proto", "forwarded", "x-real-ip", "x-secret", "te",
    ]

    /// The origin echoes the request and answers with `Set-Cookie` and CORS fields.
    static let echoQuery =
        "echo=1&header=Set-Cookie:origin-session%3D1%3B%20Path%3D/"
        + "&header=Set-Cookie:theme%3Ddark%3B%20Expires%3DWed,%2021%20Oct%202026%2007:28:00%20GMT%3B%20Path%3D/"
        + "&header=Access-Control-Allow-Origin:*"
        + "&header=Access-Control-Allow-Credentials:true&header=Access-Control-Expose-Headers:X-Plain"
        + "&header=X-Origin:answered"

    struct Exchange {
        /// Lowercased names and values of the fields the origin received.
        var sent: [String: String]
        /// The response head the page got.
        var received: HTTPFields
    }

    /// One request through a `NetworkFallbackHandler` for `origin.url("/")` with `forwarding`, or
    /// through the default upstream when `nil`.
    func exchange(_ client: NetworkTestClient, forwarding: NetworkForwardingPolicy? = nil) async throws -> Exchange {
        let origin = try OriginServer.shared()
        let handler =
            if let forwarding {
                NetworkFallbackHandler(origin: origin.url("/"), client: client.make(), forwarding: forwarding)
            } else {
                NetworkFallbackHandler(allowedHosts: [], upstream: origin.upstream(client: client.make()))
            }
        let registry = SchemeRegistry()
        try registry.register(handler, for: "app")
        var fields = HTTPFields()
        for (name, value) in Self.pageFields { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        let sink = RecordingSink()
        let request = try SchemeRequest("app://localhost/forwarding?\(Self.echoQuery)", headerFields: fields)
        try await withTimeout { await registry.handle(request, sink: sink) }
        #expect(sink.isFinished)
        let response = try #require(sink.response)
        #expect(response.status == .ok)

        struct Echo: Decodable { var headers: [[String]] }
        let echo = try JSONDecoder().decode(Echo.self, from: sink.body)
        var sent: [String: String] = [:]
        for pair in echo.headers { sent[pair[0].lowercased()] = pair[1] }
        return Exchange(sent: sent, received: response.headerFields)
    }

    @Test(arguments: NetworkTestClient.allCases)
    func byDefaultNoCredentialsReachTheOriginAndNoCookieOrCORSReachesThePage(client: NetworkTestClient)
        async throws
    {
        let exchange = try await exchange(client)
        for name in Self.withheldRequestFields {
            #expect(exchange.sent[name] == nil, "\(name) reached the origin")
        }
        #expect(exchange.sent["connection"]?.lowercased().contains("x-secret") != true)
        #expect(exchange.sent["x-plain"] == "kept")
        #expect(exchange.received[.setCookie] == nil)
        #expect(exchange.received[.accessControlAllowOrigin] == nil)
        #expect(exchange.received[.accessControlAllowCredentials] == nil)
        #expect(exchange.received[.accessControlExposeHeaders] == nil)
        #expect(exchange.received[HTTPField.Name("X-Origin")!] == "answered")
    }

    @Test(arguments: NetworkTestClient.allCases)
    func namedFieldsCrossAndNothingElseDoes(client: NetworkTestClient) async throws {
        let forwarding = NetworkForwardingPolicy(
            forwardedRequestFields: [.authorization, HTTPField.Name("x-forwarded-for")!],
            passedResponseFields: [.setCookie]
        )
        let exchange = try await exchange(client, forwarding: forwarding)
        #expect(exchange.sent["authorization"] == "Bearer page-token")
        #expect(exchange.sent["x-forwarded-for"] == "203.0.113.7")
        for name in ["cookie", "x-forwarded-host", "forwarded", "x-real-ip", "proxy-authorization"] {
            #expect(exchange.sent[name] == nil, "\(name) reached the origin")
        }
        // Two fields, as the origin sent them (RFC 6265 §3: never folded into one), the comma in
        // the second's `Expires` kept.
        #expect(
            exchange.received[values: .setCookie] == [
                "origin-session=1; Path=/", "theme=dark; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/",
            ])
        #expect(exchange.received[.accessControlAllowOrigin] == nil)
    }

    /// A ranged request asks the origin for the identity coding: the range is of the bytes the
    /// page gets, which the client would otherwise decode from a gzipped whole.
    @Test(arguments: NetworkTestClient.allCases)
    func aRangedRequestAsksTheOriginForTheIdentityCoding(client: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let registry = SchemeRegistry()
        try registry.register(
            NetworkFallbackHandler(allowedHosts: [], upstream: origin.upstream(client: client.make())), for: "app")
        for (range, expected) in [("bytes=0-9", "identity"), (nil, nil)] as [(String?, String?)] {
            var fields: HTTPFields = [.acceptEncoding: "gzip, br"]
            if let range { fields[.range] = range }
            let sink = RecordingSink()
            let request = try SchemeRequest("app://localhost/ranged?echo=1", headerFields: fields)
            try await withTimeout { await registry.handle(request, sink: sink) }
            struct Echo: Decodable { var headers: [[String]] }
            let echo = try JSONDecoder().decode(Echo.self, from: sink.body)
            let sent = echo.headers.first { $0[0].lowercased() == "accept-encoding" }?[1]
            if let expected {
                #expect(sent == expected)
            } else {
                #expect(sent != "identity", "without a Range the client offers its codings: \(sent ?? "none")")
            }
        }
    }

    @Test(arguments: NetworkTestClient.allCases)
    func hopByHopFieldsNeverCrossEvenWhenNamed(client: NetworkTestClient) async throws {
        let forwarding = NetworkForwardingPolicy(
            forwardedRequestFields: [.proxyAuthorization, .te, .connection, HTTPField.Name("X-Secret")!, .cookie],
            passedResponseFields: [.accessControlAllowOrigin, .connection]
        )
        let exchange = try await exchange(client, forwarding: forwarding)
        for name in ["proxy-authorization", "te", "x-secret"] {
            #expect(exchange.sent[name] == nil, "\(name) reached the origin")
        }
        #expect(exchange.sent["cookie"] == "other-app-session=secret")
        #expect(exchange.received[.accessControlAllowOrigin] == "*")
        #expect(exchange.received[.setCookie] == nil)
    }
}
