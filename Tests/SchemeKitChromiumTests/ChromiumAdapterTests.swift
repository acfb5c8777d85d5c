#if Chromium
    import Foundation
    import HTTPTypes
    import LoopbackTestSupport
    import SchemeKit
    import SchemeKitTesting
    import Synchronization
    import Testing

    @testable import SchemeKitChromium
    import SchemeKitBrowserSupport

    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct ChromiumAdapterTests {
        @Test(arguments: ChromiumWireFormat.allCases)
        func theSampleAppPassesEverySelfCheck(wireFormat: ChromiumWireFormat) async throws {
            try await ChromiumHarness.with(wireFormat: wireFormat) { registry in
                try registry.register(LocalFileHandler(root: ChromiumHarness.sampleApp), for: "app")
            } _: { harness in
                let records = harness.adapter.records()
                try await harness.page.navigate(to: "https://app.localhost/index.html")
                let report = try await harness.page.evaluate("window.sampleReport")
                for check in ["css", "module", "font", "json", "video", "missing404"] {
                    #expect(report[check] == .bool(true), "\(check): \(report)")
                }
                #expect(report["image"]?["ok"] == .bool(true), "\(report)")
                #expect(try await harness.page.evaluate("document.title") == .string("sample:ok"))
                #expect(try await harness.page.evaluate("isSecureContext") == .bool(true))
                // The eager `<video>` may still be reading a range when the report is ready: every task
                // ends (none leaks), not necessarily before the page's scripts do.
                #expect(await eventually { harness.registry.metrics.live == 0 })
                // Every file the report waited for was answered, and nothing else (but the poster);
                // the adapter counted each answer it recorded. The stop ends the record sequence.
                await harness.adapter.stop()
                let (read, ended) = await readToEnd(records, within: .seconds(30))
                #expect(ended)
                #expect(SampleApp.answeredPaths(read) == SampleApp.reportedPaths, "\(read.map(\.url))")
                #expect(
                    harness.adapter.statistics.answered == read.count { $0.outcome == .answered },
                    "\(harness.adapter.statistics)")
            }
        }

        /// Adapters with registries of their own on one browser (a registry per tenant, or per
        /// test): each serves its own origin and nobody else's, an origin two adapters name is the
        /// first started one's, and stopping one leaves the others serving. Chromium keeps one set
        /// of Fetch patterns per session, so each adapter's `Fetch.enable` used to replace the
        /// last one's, and a stop's `Fetch.disable` ended them all.
        @Test func adaptersOnOneBrowserServeTheirOwnOrigins() async throws {
            try await ChromiumHarness.withBrowser { browser in
                func adapter(_ host: String, title: String) throws -> ChromiumSchemeAdapter {
                    let registry = SchemeRegistry()
                    try registry.register(
                        StaticHandlerPage.html("<!doctype html><link rel=icon href=\"data:,\"><title>\(title)</title>"),
                        for: "app")
                    return ChromiumSchemeAdapter(
                        registry: registry, browser: browser,
                        configuration: ChromiumAdapterConfiguration(origins: [VirtualOrigin(host: host)]))
                }
                let first = try adapter("first.localhost", title: "first")
                let second = try adapter("second.localhost", title: "second")
                let shadow = try adapter("first.localhost", title: "shadow")
                let page = try await browser.newPage()
                func title(_ host: String) async throws -> JavaScriptValue {
                    try await page.navigate(to: "https://\(host)/index.html")
                    return try await page.evaluate("document.title")
                }
                try await first.start()
                try await second.start()
                try await shadow.start()
                #expect(try await title("first.localhost") == .string("first"))
                #expect(try await title("second.localhost") == .string("second"))
                #expect(try await title("first.localhost") == .string("first"), "the first started adapter's")
                // One answer per load (the page names no icon): two for the first, one for the second.
                #expect(
                    await eventually { first.statistics.answered == 2 && second.statistics.answered == 1 },
                    "\(first.statistics); \(second.statistics)")
                for adapter in [first, second] {
                    #expect(adapter.statistics.continued == 0, "no adapter lets another's request go")
                    #expect(adapter.statistics.failed == 0)
                }
                #expect(shadow.statistics.intercepted == 0)

                await second.stop()
                #expect(try await title("first.localhost") == .string("first"), "the others go on")
                await #expect(throws: EngineError.self) { try await title("second.localhost") }
                try await second.start()
                #expect(try await title("second.localhost") == .string("second"), "started again")

                await first.stop()
                #expect(try await title("first.localhost") == .string("shadow"), "the origin passes on")
                #expect(try await title("second.localhost") == .string("second"))
                for adapter in [first, second, shadow] { await adapter.stop() }
            }
        }

        /// A redirect on the registry's origin (a handler's, or the network handler's for an origin
        /// redirecting to itself) keeps the page on the virtual origin, for a navigation and a
        /// `fetch()`: the browser gets `https://app.localhost/…`, never `app://localhost/…`.
        @Test func aRedirectOnTheRegistrysOriginKeepsThePageOnTheVirtualOrigin() async throws {
            try await ChromiumHarness.with { registry in
                let redirect = StaticHandler(
                    "", status: .found, headerFields: [.location: "app://localhost/landed.html?from=start"])
                let page = StaticHandler("<!doctype html><title>landed</title>", mimeType: "text/html")
                try registry.register(SchemeHandlerChain(redirect.matching(.path("/start")), page), for: "app")
            } _: { harness in
                let landed = "https://app.localhost/landed.html?from=start"
                try await harness.page.navigate(to: "https://app.localhost/start")
                #expect(try await harness.page.evaluate("location.href") == .string(landed))
                #expect(try await harness.page.evaluate("document.title") == .string("landed"))
                #expect(try await harness.page.evaluate("fetch('/start').then(r => r.url)") == .string(landed))
            }
        }

        /// `Cache-Control: no-cache` (LocalFileHandler's default) means every load asks again: an
        /// updated file of an offline package shows on the next load, and the load goes through the
        /// handlers (a 304 when nothing changed).
        @Test func aNoCacheSubresourceIsAskedForOnEveryLoad() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nocache-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try Data("<!doctype html><link rel=stylesheet href=a.css><script src=a.js></script>".utf8).write(
                to: directory.appendingPathComponent("index.html"))
            try Data("body { color: red }".utf8).write(to: directory.appendingPathComponent("a.css"))
            try Data("document.title = 'one'".utf8).write(to: directory.appendingPathComponent("a.js"))
            // The file handler, with every path it is asked for written down.
            let asked = Locked<[String]>([])
            let files = LocalFileHandler(root: directory)
            let recording = ClosureHandler(name: "files") { request, writer in
                asked.withLock { $0.append(request.path) }
                return try await files.handle(request, writer: writer)
            }
            try await ChromiumHarness.with { registry in
                try registry.register(recording, for: "app")
            } _: { harness in
                try await harness.page.navigate(to: "https://app.localhost/index.html")
                #expect(try await harness.page.evaluate("document.title") == .string("one"))
                let first = asked.withLock { $0.count }
                try await harness.page.navigate(to: "https://app.localhost/blank.html")
                try Data("document.title = 'two'".utf8).write(to: directory.appendingPathComponent("a.js"))
                try await harness.page.navigate(to: "https://app.localhost/index.html")
                #expect(try await harness.page.evaluate("document.title") == .string("two"))
                // blank.html (404), then index.html, a.css and a.js again, once each. The browser's own
                // requests for /favicon.ico (these pages name no icon) come after a load, whenever.
                let again = asked.withLock { Array($0.dropFirst(first)) }.filter { $0 != "/favicon.ico" }
                #expect(
                    again.sorted() == ["/a.css", "/a.js", "/blank.html", "/index.html"], "\(asked.withLock { $0 })")
            }
        }

        @Test func rangesAndValidatorsGoThroughTheHandlers() async throws {
            try await ChromiumHarness.with { registry in
                try registry.register(LocalFileHandler(root: ChromiumHarness.sampleApp), for: "app")
            } _: { harness in
                try await harness.openOrigin("/index.html")
                let range = try await harness.page.evaluate(
                    """
                    fetch('/img/mandelbrot.jpg', {headers: {Range: 'bytes=100-199'}, cache: 'no-store'})
                      .then(async r => [r.status, (await r.arrayBuffer()).byteLength, r.headers.get('content-range')])
                    """)
                #expect(range == .array([.number(206), .number(100), range[2] ?? .null]))
                #expect(range.arrayValue?[2].stringValue?.hasPrefix("bytes 100-199/") == true)
                let revalidated = try await harness.page.evaluate(
                    """
                    fetch('/data/app.json', {cache: 'no-store'}).then(r => r.headers.get('etag'))
                      .then(etag => fetch('/data/app.json', {headers: {'If-None-Match': etag}, cache: 'no-store'}))
                      .then(r => r.status)
                    """)
                #expect(revalidated == .number(304))
            }
        }

        @Test func anAbortedFetchStopsTheTask() async throws {
            let hanging = HangingHandler(writesHead: false)
            try await ChromiumHarness.with { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(hanging, for: "app", pathPrefix: "/hang")
            } _: { harness in
                try await harness.openOrigin()
                _ = try await harness.page.evaluate(
                    """
                    window.controller = new AbortController();
                    window.outcome = fetch('/hang/1', {signal: controller.signal}).then(() => 'answered', e => e.name);
                    true
                    """)
                #expect(await eventually { hanging.started == 1 })
                #expect(try await harness.page.evaluate("controller.abort(); outcome") == .string("AbortError"))
                #expect(
                    await eventually { hanging.cancellations == 1 && harness.registry.metrics.live == 0 })
                let statistics = harness.adapter.statistics
                #expect(statistics.canceledByPage == 1, "\(statistics)")
                #expect(harness.registry.metrics.stopped == 1)
                #expect(harness.registry.metrics.writesDroppedAfterStop == 0)
            }
        }

        /// The page's close ends its five held requests: they are stopped, none by the request
        /// timeout (a minute, far past the test's own bounds), so the close is what ended them.
        @Test func closingThePageEndsEveryPendingTask() async throws {
            let hanging = HangingHandler(writesHead: true)
            try await ChromiumHarness.with(configure: { $0.requestTimeout = .seconds(60) }) { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(hanging, for: "app", pathPrefix: "/hang")
            } _: { harness in
                try await harness.openOrigin()
                let before = harness.adapter.statistics
                _ = try await harness.page.evaluate("for (let i = 0; i < 5; i++) fetch('/hang/' + i); true")
                #expect(await eventually { hanging.started == 5 })
                try await harness.page.close()
                #expect(await eventually { harness.registry.metrics.live == 0 && hanging.cancellations == 5 })
                let statistics = harness.adapter.statistics
                #expect(statistics.stopped - before.stopped == 5, "\(statistics)")
                #expect(statistics.timedOut == 0, "\(statistics)")
                #expect(statistics.inFlight == 0, "\(statistics)")
            }
        }

        @Test(arguments: ChromiumWireFormat.allCases)
        func aBinaryPostReachesTheHandlerByteForByte(wireFormat: ChromiumWireFormat) async throws {
            let received = Received()
            let echo = ClosureHandler(name: "echo", methods: [.post]) { request, writer in
                let body = try await request.body.collect()
                received.set(body)
                try await writer.respond(.ok, mimeType: "text/plain", body: Data(String(body.count).utf8))
                return .handled
            }
            try await ChromiumHarness.with(wireFormat: wireFormat) { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(echo, for: "app", pathPrefix: "/echo")
            } _: { harness in
                try await harness.openOrigin()
                let answer = try await harness.page.evaluate(
                    """
                    (() => { const bytes = new Uint8Array(70000); for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) & 255;
                      return fetch('/echo', {method: 'POST', body: bytes}).then(r => r.text()); })()
                    """)
                #expect(answer == .string("70000"))
                let expected = Data((0..<70000).map { UInt8(($0 * 7) & 255) })
                #expect(received.value == expected)
            }
        }

        @Test(arguments: [
            ChromiumAdapterConfiguration.PassPolicy.continueRequest, .fail(errorReason: "BlockedByClient"),
        ])
        func whenEveryHandlerPassesThePolicyApplies(policy: ChromiumAdapterConfiguration.PassPolicy) async throws {
            try await ChromiumHarness.with(configure: { $0.whenPassed = policy }) { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(
                    LocalFileHandler(root: ChromiumHarness.sampleApp), for: "app", pathPrefix: "/files")
            } _: { harness in
                try await harness.openOrigin()
                // Both a path no route takes and a file the handler does not have pass.
                for path in ["/nothing-here", "/files/missing.txt"] {
                    let outcome = try await harness.page.evaluate(
                        "fetch('\(path)').then(r => 'status ' + r.status, e => e.name)")
                    // app.localhost resolves nowhere: continued requests fail in the network, failed ones at once.
                    #expect(outcome == .string("TypeError"), "\(path)")
                }
                let statistics = harness.adapter.statistics
                switch policy {
                case .continueRequest: #expect(statistics.continued == 2, "\(statistics)")
                default: #expect(statistics.failed == 2, "\(statistics)")
                }
            }
        }

        @Test func twoHundredConcurrentFetchesAllSucceed() async throws {
            let counting = CountingHandler(StaticHandler("ok"))
            try await ChromiumHarness.with { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(counting, for: "app", pathPrefix: "/n")
            } _: { harness in
                try await harness.openOrigin()
                // The blank page's own request is counted once Chromium acknowledged its answer, which
                // may come after the load event: let it settle before taking the baseline.
                #expect(
                    await eventually {
                        harness.adapter.statistics.answered == 1 && harness.adapter.statistics.inFlight == 0
                    })
                let before = harness.adapter.statistics
                let count = try await harness.page.evaluate(
                    """
                    Promise.all(Array.from({length: 200}, (_, i) => fetch('/n/' + i, {cache: 'no-store'}).then(r => r.text())))
                      .then(texts => texts.filter(t => t === 'ok').length)
                    """)
                #expect(count == .number(200))
                #expect(await eventually { harness.adapter.statistics.inFlight == 0 })
                let statistics = harness.adapter.statistics
                #expect(statistics.answered - before.answered == 200, "\(statistics)")
                #expect(statistics.inFlight == 0)
                #expect(harness.registry.metrics.finished == harness.registry.metrics.started)
                #expect(harness.registry.metrics.live == 0)
                #expect(counting.handled == 200)
            }
        }
    }

    /// A value set by a handler and read by the test.
    final class Received: Sendable {
        private let storage = Mutex<Data?>(nil)
        func set(_ data: Data) { storage.withLock { $0 = data } }
        var value: Data? { storage.withLock { $0 } }
    }

    extension CDPValue {
        var arrayValue: [CDPValue]? {
            if case .array(let values) = self { return values }
            return nil
        }

        subscript(index: Int) -> CDPValue? { arrayValue.flatMap { index < $0.count ? $0[index] : nil } }
    }
#endif
