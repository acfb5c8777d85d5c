import Foundation
import LoopbackTestSupport
import SchemeKit
import SchemeKitTesting
import Synchronization
import Testing

struct NetworkFallbackHandlerTests {
    /// Runs `request` through a registry holding `handler`, bounded in time.
    func run(_ handler: NetworkFallbackHandler, _ url: String, headers: HTTPFields = [:]) async throws -> RecordingSink
    {
        let registry = SchemeRegistry()
        try registry.register(handler, for: "app")
        let sink = RecordingSink()
        let request = try SchemeRequest(url, headerFields: headers)
        try await withTimeout { await registry.handle(request, sink: sink) }
        return sink
    }

    @Test(arguments: NetworkTestClient.allCases)
    func hostToIPRewriteKeepsTheOriginalHostHeader(client: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        var rewriter = NetworkRewriter()
        rewriter.setRule(
            NetworkRewriteRule(scheme: "http", port: origin.port, connectAddress: "127.0.0.1"),
            scheme: "app",
            host: "origin.test"
        )
        let handler = NetworkFallbackHandler(
            allowedHosts: [], upstream: NetworkUpstream(client: client.make(), rewriter: rewriter))
        let path = "/" + OriginServer.unique("ip-direct")
        let sink = try await run(handler, "app://origin.test\(path)?body=hi")
        #expect(sink.response?.status == .ok)
        #expect(sink.bodyString == "hi")
        let stats = try await origin.stats(path)
        #expect(stats.hosts == ["origin.test:\(origin.port)"])
    }

    /// `--fallback http://127.0.0.1:PORT/ignored`: scheme, host and port come from the origin, path
    /// and query from the request; the origin's own path is not used.
    @Test(arguments: NetworkTestClient.allCases)
    func anOriginSendsEveryHostToItsSchemeHostAndPort(client: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let handler = NetworkFallbackHandler(
            origin: URL(string: "http://127.0.0.1:\(origin.port)/ignored/path")!, client: client.make())
        let path = "/" + OriginServer.unique("origin-init")
        let sink = try await run(handler, "app://any-host.example\(path)?body=from-origin")
        #expect(sink.response?.status == .ok)
        #expect(sink.bodyString == "from-origin")
        let stats = try await origin.stats(path)
        #expect(stats.requests == 1)
        #expect(stats.hosts == ["127.0.0.1:\(origin.port)"])
    }

    /// Where the origin redirects to itself: `Location` values and what the page gets.
    static func redirects(port: Int) -> [(location: String, expected: String)] {
        [
            ("http://127.0.0.1:\(port)/next/page?a=1&b=%20#top", "app://x/next/page?a=1&b=%20#top"),
            ("//127.0.0.1:\(port)/scheme-relative", "app://x/scheme-relative"),
            ("HTTP://127.0.0.1:\(port)", "app://x/"),
            // Left alone: relative (the engine resolves it against the page), and other origins.
            ("/relative?x=1", "/relative?x=1"),
            ("http://127.0.0.1:\(port + 1)/other-port", "http://127.0.0.1:\(port + 1)/other-port"),
            ("https://127.0.0.1:\(port)/other-scheme", "https://127.0.0.1:\(port)/other-scheme"),
            ("https://sign-in.example/login", "https://sign-in.example/login"),
        ]
    }

    /// The origin's query asking for a 302 to `location`.
    static func redirectQuery(_ location: String) -> String {
        "status=302&header=Location:" + location.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    /// An origin that redirects to itself (`https://api.example/login`, built from the `Host` it
    /// got) must not take the page off its scheme: like nginx's `proxy_redirect default`, the
    /// page gets the same path on its own origin.
    @Test(arguments: NetworkTestClient.allCases)
    func aRedirectToTheOriginItselfStaysOnThePagesOrigin(client: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let handler = NetworkFallbackHandler(allowedHosts: [], upstream: origin.upstream(client: client.make()))
        for (location, expected) in Self.redirects(port: origin.port) {
            let path = "/" + OriginServer.unique("redirect")
            let sink = try await run(handler, "app://x\(path)?\(Self.redirectQuery(location))")
            #expect(sink.response?.status.code == 302, "\(location)")
            #expect(sink.response?.headerFields[.location] == expected, "\(location)")
        }
    }

    @Test(arguments: NetworkTestClient.allCases)
    func streamsTheFirstChunkBeforeTheOriginFinished(client: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let handler = NetworkFallbackHandler(allowedHosts: [], upstream: origin.upstream(client: client.make()))
        let registry = SchemeRegistry()
        try registry.register(handler, for: "app")
        let sink = RecordingSink()
        let path = "/" + OriginServer.unique("streaming")
        let gate = OriginServer.unique("gate")
        // The origin sends the first chunk, then holds the other four until the gate opens.
        let task = registry.task(
            for: try SchemeRequest("app://x\(path)?chunks=5&chunk=1000&gate=\(gate):1"), sink: sink)
        task.start()
        #expect(await eventually { sink.body.count == 1000 })
        #expect(sink.body == OriginServer.pattern(count: 1000))
        #expect(!sink.isFinished)
        #expect(try await origin.stats(path).completed == 0)
        try await origin.release(gate)
        await withTimeout(sink)
        #expect(sink.body == OriginServer.pattern(count: 5000))
        #expect(sink.isFinished)
        #expect(sink.response?.headerFields[.transferEncoding] == nil)
        #expect(sink.violations.isEmpty)
    }

    @Test(arguments: NetworkTestClient.allCases)
    func hopByHopHeadersAreNotForwarded(client: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let handler = NetworkFallbackHandler(allowedHosts: [], upstream: origin.upstream(client: client.make()))
        var headers = HTTPFields()
        headers[.connection] = "X-Secret"
        headers[HTTPField.Name("X-Secret")!] = "1"
        headers[HTTPField.Name("Keep-Alive")!] = "timeout=5"
        headers[.te] = "trailers"
        headers[.upgrade] = "websocket"
        headers[.proxyAuthorization] = "Basic eDp5"
        headers[HTTPField.Name("X-Keep")!] = "yes"
        let query = "echo=1&header=Connection:X-Drop&header=X-Drop:1&header=Keep-Alive:timeout%3D5&header=X-Pass:1"
        let sink = try await run(handler, "app://x/hop?\(query)", headers: headers)

        struct Echo: Decodable { var headers: [[String]] }
        let echo = try JSONDecoder().decode(Echo.self, from: sink.body)
        let sent = Set(echo.headers.map { $0[0].lowercased() })
        #expect(sent.contains("x-keep"))
        for name in ["x-secret", "keep-alive", "te", "upgrade", "proxy-authorization"] {
            #expect(!sent.contains(name), "\(name) was forwarded")
        }
        let received = try #require(sink.response).headerFields
        #expect(received[HTTPField.Name("X-Pass")!] == "1")
        #expect(received[HTTPField.Name("X-Drop")!] == nil)
        #expect(received[HTTPField.Name("Keep-Alive")!] == nil)
        #expect(received[.connection] == nil)
    }

    @Test(arguments: NetworkTestClient.allCases, [404, 500])
    func upstreamStatusesPassThrough(client: NetworkTestClient, code: Int) async throws {
        let origin = try OriginServer.shared()
        let handler = NetworkFallbackHandler(allowedHosts: [], upstream: origin.upstream(client: client.make()))
        let sink = try await run(handler, "app://x/status-\(code)?status=\(code)&body=upstream-says-\(code)")
        #expect(sink.response?.status.code == code)
        #expect(sink.bodyString == "upstream-says-\(code)")
        #expect(sink.isFinished)
    }

    @Test(arguments: NetworkTestClient.allCases)
    func upstreamDownAnswers502(client: NetworkTestClient) async throws {
        let upstream = NetworkUpstream(
            client: client.make(),
            rewriter: NetworkRewriter(defaultRule: NetworkRewriteRule(scheme: "http", host: "127.0.0.1", port: 1))
        )
        let handler = NetworkFallbackHandler(allowedHosts: [], upstream: upstream)
        let sink = try await run(handler, "app://x/down")
        #expect(sink.response?.status == .badGateway)
        #expect(sink.bodyString.hasPrefix("Bad Gateway"))
        #expect(sink.isFinished)
        #expect(handler.metrics.badGateway == 1)
    }

    @Test(arguments: NetworkTestClient.allCases)
    func slowUpstreamHeadAnswers504(client: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let failures = Counter()
        let handler = NetworkFallbackHandler(
            allowedHosts: [], upstream: origin.upstream(connectTimeout: .milliseconds(300), client: client.make()),
            configuration: .init(onUpstreamFailure: { _, _ in failures.increment() })
        )
        // The origin holds the head until the handler gives up (it never releases the gate).
        let path = "/" + OriginServer.unique("slow-head")
        let sink = try await run(handler, "app://x\(path)?wait=\(OriginServer.unique("gate"))&body=late")
        #expect(sink.response?.status == .gatewayTimeout)
        #expect(sink.isFinished)
        #expect(handler.metrics.gatewayTimeout == 1)
        #expect(failures.value == 1)
        #expect(try await origin.waitForStats(path) { $0.aborted == 1 }.completed == 0)
    }

    @Test(arguments: NetworkTestClient.allCases)
    func bodyCutAfterTheHeadFailsTheTask(client: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let handler = NetworkFallbackHandler(allowedHosts: [], upstream: origin.upstream(client: client.make()))
        let sink = try await run(handler, "app://x/cut?size=100000&cut=1")
        #expect(sink.response?.status == .ok)
        // Each client's own words for a body cut short (the origin sends 50,000 of its 100,000 bytes).
        switch client {
        case .urlSession:
            #expect(
                sink.failure == "HTTP client: connection failed: transfer closed with 50000 bytes remaining to read")
        #if AsyncHTTPClient
            case .asyncHTTPClient:
                #expect(sink.failure == "HTTP client: invalid response: stream ended at an unexpected time")
        #endif
        }
        #expect(!sink.isFinished)
        #expect(handler.metrics.cutMidBody == 1)
    }

    @Test(arguments: NetworkTestClient.allCases)
    func stopMidStreamCancelsTheUpstreamRequest(client: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let handler = NetworkFallbackHandler(allowedHosts: [], upstream: origin.upstream(client: client.make()))
        let registry = SchemeRegistry()
        try registry.register(handler, for: "app")
        let sink = RecordingSink()
        let path = "/" + OriginServer.unique("stop-mid")
        // The origin holds the body after the first chunk; only the stop can end the exchange.
        let task = registry.task(
            for: try SchemeRequest("app://x\(path)?chunks=200&chunk=1000&gate=\(OriginServer.unique("gate")):1"),
            sink: sink
        )
        task.start()
        #expect(await eventually { !sink.body.isEmpty })
        task.stop()
        sink.markStopped()
        let stats = try await origin.waitForStats(path) { $0.aborted == 1 }
        #expect(stats.aborted == 1)
        #expect(stats.completed == 0)
        #expect(sink.violations.isEmpty)
        #expect(sink.terminalCount == 0)
    }

    @Test(arguments: NetworkTestClient.allCases)
    func writeThroughMovesTheFileIntoPlaceOnlyAfterTheWholeBody(client base: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let directory = try TemporaryDirectory()
        let store = NetworkWriteThrough(directory: directory.url)
        let gate = OriginServer.unique("gate")
        // The origin sends two chunks, then holds the other 18 until the gate opens.
        let client = QueryAppendingClient(
            base: base.make(),
            query: "chunks=20&chunk=5000&gate=\(gate):2&type=text/javascript"
        )
        let handler = NetworkFallbackHandler(
            allowedHosts: [], upstream: origin.upstream(client: client),
            configuration: .init(writeThrough: store)
        )
        let registry = SchemeRegistry()
        try registry.register(handler, for: "app")
        let sink = RecordingSink()
        let path = "/" + OriginServer.unique("wt-atomic") + "/page.js"
        let file = try #require(store.fileURL(for: URL(string: "app://x\(path)")!))
        registry.task(for: try SchemeRequest("app://x\(path)"), sink: sink).start()
        #expect(await eventually { sink.body.count == 10_000 })
        #expect(!FileManager.default.fileExists(atPath: file.path), "a partial body is never in place")
        try await origin.release(gate)
        await withTimeout(sink)
        #expect(sink.isFinished)
        #expect(try Data(contentsOf: file) == OriginServer.pattern(count: 100_000))
        #expect(handler.metrics.storedWriteThrough == 1)
    }

    @Test(
        arguments: NetworkTestClient.allCases,
        [
            ("size=1000&type=text/plain", true),
            ("size=1000&type=text/plain&header=Cache-Control:no-store", false),
            ("size=1000&type=text/plain&header=Cache-Control:private", false),
            ("size=1000&type=text/plain&header=Set-Cookie:id%3D1", false),
            ("size=1000&type=image/png", false),
            ("size=1000&type=text/plain&status=404", false),
            ("size=100000&type=text/plain&cut=1", false),
        ])
    func writeThroughStoresOnlyWhatMayBeStored(client base: NetworkTestClient, expectation: (String, Bool))
        async throws
    {
        let (query, stored) = expectation
        let origin = try OriginServer.shared()
        let directory = try TemporaryDirectory()
        let store = NetworkWriteThrough(directory: directory.url)
        // Scheme URLs with a query are never stored, so a client adds the origin's query.
        let client = QueryAppendingClient(base: base.make(), query: query)
        let handler = NetworkFallbackHandler(
            allowedHosts: [], upstream: origin.upstream(client: client),
            configuration: .init(writeThrough: store)
        )
        let path = "/wt-\(UUID().uuidString).txt"
        let sink = try await run(handler, "app://x\(path)")
        #expect(sink.terminalCount == 1)
        let file = try #require(store.fileURL(for: URL(string: "app://x\(path)")!))
        #expect(FileManager.default.fileExists(atPath: file.path) == stored)
        if stored {
            #expect(try Data(contentsOf: file) == OriginServer.pattern(count: 1000))
        }
        let partial = directory.url.appendingPathComponent(".partial")
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: partial.path)) ?? []
        #expect(leftovers.isEmpty)
    }
}

/// A client that adds a query string to every URL: lets a query-free scheme URL reach an origin
/// endpoint configured by query.
struct QueryAppendingClient: SchemeHTTPClient {
    var base: any SchemeHTTPClient
    var query: String

    func send(_ request: SchemeHTTPClientRequest) async throws -> SchemeHTTPClientResponse {
        var request = request
        var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = query
        request.url = components.url!
        return try await base.send(request)
    }
}

/// A thread-safe counter for callbacks.
final class Counter: Sendable {
    private let storage = Locked(0)
    func increment() { add(1) }
    func add(_ amount: Int) { storage.withLock { $0 += amount } }
    var value: Int { storage.withLock { $0 } }
}

/// A fresh directory under the temporary directory, removed on deinit.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("schemekit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Waits for `sink` to complete, bounded in time.
func withTimeout(_ sink: RecordingSink, _ limit: Duration = .seconds(20)) async {
    _ = try? await withTimeout(limit) { await sink.waitForCompletion() }
}
