import Foundation
import HTTPTypes
import LoopbackTestSupport
import SchemeKit
import SchemeKitTesting
import Testing

/// A network fallback goes only where the app said: a host the page names must be allowed, an IP
/// literal listed, and a name must resolve to public addresses (or listed ones). A refusal is a
/// 403 that names the rule, counted, and never a fetch: the live loopback origin behind the
/// handler must receive nothing.
struct NetworkAllowedHostsTests {
    /// An upstream that keeps the request's host and sends it to the shared origin's port over
    /// plain HTTP: `app://HOST/p` → `http://HOST:PORT/p`, so that a host the gate let through
    /// would reach the live origin when it is loopback. Names resolve through `names` first.
    static func upstream(
        _ origin: OriginServer, client: NetworkTestClient, names: [String: [String]] = [:]
    ) -> NetworkUpstream {
        var upstream = NetworkUpstream(
            client: client.make(),
            rewriter: NetworkRewriter(defaultRule: NetworkRewriteRule(scheme: "http", port: origin.port)),
            timeout: TestTiming.scaled(.seconds(30)))
        upstream.resolver = .table(names.mapValues { $0.compactMap(NetworkAddress.init(literal:)) })
        return upstream
    }

    static func run(_ handler: NetworkFallbackHandler, _ url: String, method: HTTPRequest.Method = .get)
        async throws -> RecordingSink
    {
        let registry = SchemeRegistry()
        try registry.register(handler, for: "app")
        let sink = RecordingSink()
        try await withTimeout { await registry.handle(try! SchemeRequest(url, method: method), sink: sink) }
        return sink
    }

    /// A refusal: 403, its body `Forbidden: <reason>`, the reason on the head, nothing fetched.
    static func expectRefused(
        _ sink: RecordingSink, _ reason: NetworkFallbackError, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(sink.response?.status == .forbidden, sourceLocation: sourceLocation)
        #expect(sink.bodyString == "Forbidden: \(reason)\n", sourceLocation: sourceLocation)
        #expect(sink.response?.refusalReason as? NetworkFallbackError == reason, sourceLocation: sourceLocation)
    }

    @Test(arguments: NetworkTestClient.allCases)
    func anUnlistedLoopbackAddressIsRefusedAndTheOriginSeesNothing(client: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let handler = NetworkFallbackHandler(
            allowedHosts: ["*", "api.example.com"], upstream: Self.upstream(origin, client: client))
        let path = "/" + OriginServer.unique("loopback-literal")
        let sink = try await Self.run(handler, "app://127.0.0.1\(path)?body=leaked")
        Self.expectRefused(sink, .hostNotAllowed("127.0.0.1"))
        #expect(sink.bodyString.contains("not in the fallback's allowed hosts"))
        #expect(handler.metrics.refusedHosts == 1)
        #expect(handler.metrics.forwarded == 0)
        #expect(try await origin.stats(path).requests == 0, "the origin got no request")
        // HEAD: the same refusal, without a body.
        let head = try await Self.run(handler, "app://127.0.0.1\(path)", method: .head)
        #expect(head.response?.status == .forbidden)
        #expect(head.body.isEmpty)
        #expect(handler.metrics.refusedHosts == 2)
        #expect(try await origin.stats(path).requests == 0)
    }

    @Test(arguments: [
        "169.254.169.254", "[::1]", "[::ffff:127.0.0.1]", "10.0.0.5", "0.0.0.0", "[fe80::1]", "100.64.0.1",
        "8.8.8.8",
    ])
    func anIPLiteralIsRefusedUnlessListedItself(host: String) async throws {
        let origin = try OriginServer.shared()
        let handler = NetworkFallbackHandler(allowedHosts: ["*"], upstream: Self.upstream(origin, client: .urlSession))
        let sink = try await Self.run(handler, "app://\(host)/latest/meta-data/")
        Self.expectRefused(sink, .hostNotAllowed(host))
        #expect(sink.bodyString.contains("an IP address must be listed itself"))
        #expect(handler.metrics.refusedHosts == 1)
    }

    @Test(arguments: NetworkTestClient.allCases)
    func aNameThatResolvesToLoopbackIsRefused(client: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let path = "/" + OriginServer.unique("resolves-to-loopback")
        // `localhost` as the system resolves it, and a name of the test's own that resolves to
        // loopback (IPv4, and IPv6 beside a public address): all allowed by name.
        let names = ["rebind.test": ["127.0.0.1"], "mixed.test": ["93.184.216.34", "::ffff:127.0.0.1"]]
        let handler = NetworkFallbackHandler(
            allowedHosts: ["localhost", "*.test"], upstream: Self.upstream(origin, client: client, names: names))
        for host in ["localhost", "rebind.test", "mixed.test"] {
            let sink = try await Self.run(handler, "app://\(host)\(path)?body=leaked")
            Self.expectRefused(sink, .privateAddress(host: host))
            #expect(sink.bodyString.contains("resolves to a private address"))
            #expect(!sink.bodyString.contains("127.0.0.1"), "the address a name resolves to is not told")
        }
        #expect(handler.metrics.refusedHosts == 3)
        #expect(try await origin.stats(path).requests == 0, "the origin got no request")
    }

    @Test func aNameNotListedIsRefusedBeforeAnyLookUp() async throws {
        let origin = try OriginServer.shared()
        var upstream = Self.upstream(origin, client: .urlSession)
        upstream.resolver = NetworkResolver { name in
            Issue.record("\(name) was looked up")
            return []
        }
        let handler = NetworkFallbackHandler(allowedHosts: ["api.example.com", "*.cdn.example"], upstream: upstream)
        for host in ["evil.example", "cdn.example", "api.example.com.evil.example", "xapi.example.com"] {
            Self.expectRefused(try await Self.run(handler, "app://\(host)/x"), .hostNotAllowed(host))
        }
        #expect(handler.metrics.refusedHosts == 4)
    }

    @Test func aNameThatDoesNotResolveIsABadGateway() async throws {
        let origin = try OriginServer.shared()
        var upstream = Self.upstream(origin, client: .urlSession)
        upstream.resolver = NetworkResolver { name in
            throw SchemeHTTPClientError(.connectionFailed, detail: "cannot resolve \(name)")
        }
        let handler = NetworkFallbackHandler(allowedHosts: ["*"], upstream: upstream)
        let sink = try await Self.run(handler, "app://nowhere.example/x")
        #expect(sink.response?.status == .badGateway)
        #expect(handler.metrics.badGateway == 1)
        #expect(handler.metrics.refusedHosts == 0)
    }

    /// The app lists the loopback origin's address: it is reached.
    @Test(arguments: NetworkTestClient.allCases)
    func aListedLoopbackAddressIsReached(client: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let handler = NetworkFallbackHandler(
            allowedHosts: ["127.0.0.1"], upstream: Self.upstream(origin, client: client))
        let path = "/" + OriginServer.unique("listed-loopback")
        let sink = try await Self.run(handler, "app://127.0.0.1\(path)?body=allowed")
        #expect(sink.response?.status == .ok)
        #expect(sink.bodyString == "allowed")
        #expect(sink.response?.refusalReason == nil)
        #expect(handler.metrics.forwarded == 1)
        #expect(handler.metrics.refusedHosts == 0)
        #expect(try await origin.stats(path).requests == 1)
    }

    /// A name listed with the loopback address it resolves to is reached over http at the address
    /// that was checked, with the name in `Host`: no second look-up the page's DNS could answer
    /// differently.
    @Test(arguments: NetworkTestClient.allCases)
    func aListedNameGoesToTheAddressThatWasChecked(client: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let handler = NetworkFallbackHandler(
            allowedHosts: ["dev.test", "127.0.0.1"],
            upstream: Self.upstream(origin, client: client, names: ["dev.test": ["127.0.0.1"]]))
        let path = "/" + OriginServer.unique("pinned")
        let sink = try await Self.run(handler, "app://dev.test\(path)?body=pinned")
        #expect(sink.response?.status == .ok)
        #expect(sink.bodyString == "pinned")
        let stats = try await origin.stats(path)
        #expect(stats.requests == 1)
        #expect(stats.hosts == ["dev.test:\(origin.port)"])
    }

    /// `init(origin:)` names its origin: reached as given, loopback included (what `--fallback
    /// http://127.0.0.1:8081` means), whatever host the page asks for.
    @Test func anOriginIsReachedAsGiven() async throws {
        let origin = try OriginServer.shared()
        let handler = NetworkFallbackHandler(origin: origin.url("/"))
        #expect(handler.allowedHosts.patterns == ["127.0.0.1"])
        let path = "/" + OriginServer.unique("origin-as-given")
        let sink = try await Self.run(handler, "app://10.0.0.5\(path)?body=origin")
        #expect(sink.bodyString == "origin")
        #expect(try await origin.stats(path).requests == 1)
    }

    @Test func aPreloaderRefusesAsTheFallbackDoes() async throws {
        let origin = try OriginServer.shared()
        let preloader = Preloader(allowedHosts: ["*"], upstream: Self.upstream(origin, client: .urlSession))
        let registry = SchemeRegistry()
        try registry.register(PreloadHandler(preloader: preloader), for: "app")
        let path = "/" + OriginServer.unique("preload-refused")
        for method in [HTTPRequest.Method.get, .head] {
            let sink = RecordingSink()
            try await withTimeout {
                await registry.handle(try! SchemeRequest("app://127.0.0.1\(path)", method: method), sink: sink)
            }
            #expect(sink.response?.status == .forbidden)
            #expect(sink.response?.refusalReason as? NetworkFallbackError == .hostNotAllowed("127.0.0.1"))
            #expect(sink.body.isEmpty == (method == .head))
        }
        #expect(preloader.metrics.refusedHosts == 2)
        #expect(preloader.metrics.upstreamFetches == 0)
        #expect(try await origin.stats(path).requests == 0)
    }
}

/// What counts as public, and which patterns match.
struct NetworkAddressTests {
    @Test(arguments: [
        "127.0.0.1", "127.255.255.254", "10.0.0.5", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
        "100.64.0.1", "100.127.255.255", "0.0.0.0", "0.1.2.3", "224.0.0.1", "255.255.255.255", "::1", "::",
        "fc00::1", "fd12:3456::1", "fe80::1", "febf::1", "fec0::1", "ff02::1", "::ffff:127.0.0.1",
        "::ffff:169.254.169.254", "::ffff:10.0.0.1", "::127.0.0.1", "64:ff9b::a9fe:a9fe", "[::1]",
    ])
    func notPublic(literal: String) throws {
        #expect(try #require(NetworkAddress(literal: literal)).isPublic == false)
    }

    @Test(arguments: [
        "8.8.8.8", "93.184.216.34", "172.32.0.1", "172.15.255.255", "100.128.0.1", "100.63.255.255",
        "192.169.0.1", "169.255.0.1", "1.1.1.1", "2606:4700:4700::1111", "2001:db8::1", "::ffff:8.8.8.8",
        "64:ff9b::808:808",
    ])
    func isPublic(literal: String) throws {
        #expect(try #require(NetworkAddress(literal: literal)).isPublic)
    }

    /// Spellings `inet_aton` or a zone would accept are not IP literals: as names, they match no
    /// name pattern but `*`, and then what they resolve to is checked.
    @Test(arguments: ["127.1", "0x7f.0.0.1", "2130706433", "017700000001", "fe80::1%eth0", "[::1", "1.2.3.4.5"])
    func looseSpellingsAreNotLiterals(text: String) {
        #expect(NetworkAddress(literal: text) == nil)
    }

    @Test func patternsMatchByNameOrByAddress() {
        let allowed: NetworkAllowedHosts = ["API.example.com", "*.cdn.example", "127.0.0.1", "[::1]"]
        for host in ["api.example.com", "API.EXAMPLE.COM", "api.example.com.", "a.cdn.example", "a.b.cdn.example"] {
            #expect(allowed.allows(host: host), "\(host)")
        }
        for host in ["example.com", "cdn.example", "xcdn.example", "api.example.com.evil", "127.0.0.2", "localhost"] {
            #expect(!allowed.allows(host: host), "\(host)")
        }
        #expect(allowed.allows(host: "[0:0::1]"), "an IPv6 literal compares as an address")
        #expect(allowed.allows(host: "::1"))
        let any: NetworkAllowedHosts = ["*"]
        #expect(any.allows(host: "anything.example"))
        #expect(!any.allows(host: "10.0.0.5"), "`*` never matches an IP literal")
        #expect(!any.allows(host: "[::1]"))
        #expect(!any.allows(host: "fe80::1%25eth0"), "a zone is no name")
    }
}
