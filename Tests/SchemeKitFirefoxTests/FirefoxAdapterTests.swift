#if Firefox
    import Foundation
    import HTTPTypes
    import LoopbackTestSupport
    import NIOCore
    import SchemeKit
    import SchemeKitTesting
    import Synchronization
    import Testing

    @testable import SchemeKitFirefox

    @Suite(.serialized, .timeLimit(.minutes(3)))
    struct FirefoxAdapterTests {
        @Test func theSampleAppPassesEverySelfCheckInASecureContext() async throws {
            try await FirefoxHarness.with { registry in
                try registry.register(LocalFileHandler(root: FirefoxHarness.sampleApp), for: "app")
            } _: { harness in
                let records = harness.adapter.records()
                try await harness.page.navigate(to: "https://app.localhost/index.html")
                let report = try await harness.page.evaluate("window.sampleReport").decode(as: SampleReport.self)
                #expect(report.allPassed, "\(report)")
                #expect(try await harness.page.evaluate("document.title").decode(as: String.self) == "sample:ok")
                #expect(try await harness.page.evaluate("isSecureContext").decode(as: Bool.self))
                #expect(
                    try await harness.page.evaluate("location.origin").decode(as: String.self)
                        == "https://app.localhost")
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

        /// A redirect on the registry's origin (a handler's, or the network handler's for an origin
        /// redirecting to itself) keeps the page on the virtual origin, for a navigation and a
        /// `fetch()`: the browser gets `https://app.localhost/…`, never `app://localhost/…`.
        @Test func aRedirectOnTheRegistrysOriginKeepsThePageOnTheVirtualOrigin() async throws {
            try await FirefoxHarness.with { registry in
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

        /// An eager `<video preload="auto" muted>` on the origin: its ranges (narrowed to 8 KiB here,
        /// so the 31 KB clip takes several 206s) go through the file handler, the element reaches
        /// `HAVE_CURRENT_DATA` and seeks.
        @Test func anEagerVideoLoadsInRangesAndSeeks() async throws {
            try await FirefoxHarness.with(configure: {
                $0.transport = .interception
                $0.openEndedRangeCap = 8 << 10
            }) { registry in
                try registry.register(LocalFileHandler(root: FirefoxHarness.sampleApp), for: "app")
            } _: { harness in
                try await harness.page.navigate(to: "https://app.localhost/blank.html")
                let records = harness.adapter.records()
                let result = try await harness.page.evaluate(
                    """
                    (async () => {
                      const video = document.createElement('video');
                      video.muted = true; video.preload = 'auto'; video.src = 'media/clip.webm';
                      document.body.appendChild(video);
                      await new Promise((resolve, reject) => {
                        video.addEventListener('loadeddata', resolve, {once: true});
                        video.addEventListener('error', () => reject(new Error('media error ' + video.error.code)), {once: true});
                      });
                      const ready = video.readyState;
                      video.currentTime = video.duration * 0.8;
                      await new Promise((resolve) => video.addEventListener('seeked', resolve, {once: true}));
                      return {ready, duration: video.duration, seeked: video.currentTime, readyAfterSeek: video.readyState};
                    })()
                    """)
                struct Outcome: Decodable {
                    var ready: Int
                    var duration: Double
                    var seeked: Double
                    var readyAfterSeek: Int
                }
                let outcome = try result.decode(as: Outcome.self)
                #expect(outcome.ready >= 2 && outcome.duration > 0 && outcome.seeked > 0, "\(result)")
                // The adapter's stop ends the record sequence after the last record: every range the
                // element asked for so far is in it (one still held is stopped, not answered).
                await harness.adapter.stop()
                let (read, ended) = await readToEnd(records, within: .seconds(30))
                #expect(ended)
                let ranges = read.filter { $0.url.hasSuffix("clip.webm") && $0.outcome == .answered }
                #expect(ranges.count >= 2, "several ranges: \(ranges.map { ($0.status, $0.bytes) })")
                #expect(
                    ranges.allSatisfy { $0.status == 206 && $0.bytes <= 8 << 10 },
                    "\(ranges.map { ($0.status, $0.bytes) })"
                )
                #expect(!read.contains { $0.outcome == .failed }, "\(read.map { ($0.url, $0.outcome) })")
            }
        }

        @Test func rangesValidatorsAndUnsatisfiableRangesGoThroughTheHandlers() async throws {
            try await FirefoxHarness.with { registry in
                try registry.register(LocalFileHandler(root: FirefoxHarness.sampleApp), for: "app")
            } _: { harness in
                try await harness.openOrigin("/index.html")
                let range = try await harness.page.evaluate(
                    """
                    fetch('/img/mandelbrot.jpg', {headers: {Range: 'bytes=100-199'}, cache: 'no-store'})
                      .then(async r => [r.status, (await r.arrayBuffer()).byteLength, r.headers.get('content-range')])
                    """)
                #expect(range.description == #"[206,100,"bytes 100-199/11288"]"#)
                let unsatisfiable = try await harness.page.evaluate(
                    """
                    fetch('/img/mandelbrot.jpg', {headers: {Range: 'bytes=999999-'}, cache: 'no-store'})
                      .then(r => [r.status, r.headers.get('content-range')])
                    """)
                #expect(unsatisfiable.description == #"[416,"bytes */11288"]"#)
                let revalidated = try await harness.page.evaluate(
                    """
                    fetch('/data/app.json', {cache: 'no-store'}).then(r => [r.headers.get('etag'), r.headers.get('content-type')])
                      .then(([etag, type]) => fetch('/data/app.json', {headers: {'If-None-Match': etag}, cache: 'no-store'})
                      .then(r => [r.status, type]))
                    """)
                #expect(revalidated.description == #"[304,"application/json; charset=utf-8"]"#)
                let types = try await harness.page.evaluate(
                    "Promise.all(['/js/main.mjs', '/css/style.css', '/fonts/dejavu-sans-subset.woff2'].map(p => fetch(p).then(r => r.headers.get('content-type'))))"
                )
                #expect(
                    types.description == #"["text/javascript; charset=utf-8","text/css; charset=utf-8","font/woff2"]"#)
            }
        }

        @Test func aBinaryPostReachesTheHandlerByteForByte() async throws {
            let received = Received()
            let echo = ClosureHandler(name: "echo", methods: [.post]) { request, writer in
                let body = try await request.body.collect()
                received.set(body)
                try await writer.respond(.ok, mimeType: "text/plain", body: Data(String(body.count).utf8))
                return .handled
            }
            try await FirefoxHarness.with { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(echo, for: "app", pathPrefix: "/echo")
            } _: { harness in
                try await harness.openOrigin()
                let answer = try await harness.page.evaluate(
                    """
                    (() => { const bytes = new Uint8Array(70000); for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) & 255;
                      return fetch('/echo', {method: 'POST', body: bytes}).then(r => r.text()); })()
                    """
                ).decode(as: String.self)
                #expect(answer == "70000")
                #expect(received.value == Data((0..<70000).map { UInt8(($0 * 7) & 255) }))
                let text = try await harness.page.evaluate(
                    "fetch('/echo', {method: 'POST', body: 'héllo'}).then(r => r.text())"
                ).decode(as: String.self)
                #expect(text == "6" && received.value == Data("héllo".utf8))
            }
        }

        /// A stop mid-body: the handler wrote the head and part of the body, then the page's
        /// context closes. The task is stopped, its later writes are dropped, and nothing is
        /// answered for it.
        @Test func closingThePageMidBodyStopsTheTaskAndNothingIsWrittenAfter() async throws {
            let progress = Progress()
            let slow = ClosureHandler(name: "slow") { _, writer in
                try await writer.writeHead(
                    SchemeResponse(status: .ok, mimeType: "application/octet-stream", expectedContentLength: 1 << 20))
                try await writer.write(Data(count: 64 << 10))
                progress.wroteFirstChunk()
                do {
                    try await Task.sleep(for: .seconds(60))  // a handler that hangs until stopped
                } catch {
                    progress.cancelled()
                    try? await writer.write(Data(count: 64 << 10))  // after the stop: dropped
                    throw error
                }
                return .handled
            }
            try await FirefoxHarness.with(configure: { $0.transport = .interception }) { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(slow, for: "app", pathPrefix: "/slow")
            } _: { harness in
                try await harness.openOrigin()
                _ = try await harness.page.evaluate("for (let i = 0; i < 3; i++) fetch('/slow/' + i); true")
                #expect(await eventually { progress.first == 3 })
                let before = harness.adapter.statistics
                try await harness.page.close()
                #expect(
                    await eventually { progress.cancellations == 3 && harness.registry.metrics.live == 0 })
                let statistics = harness.adapter.statistics
                #expect(statistics.pageClosed == 3, "\(statistics)")
                #expect(statistics.answered == before.answered, "nothing answered after the stop")
                #expect(statistics.inFlight == 0)
                #expect(harness.registry.metrics.stopped == 3)
                // One write after the stop in each of the three handlers, each dropped.
                #expect(harness.registry.metrics.writesDroppedAfterStop == 3, "\(harness.registry.metrics)")
            }
        }

        /// Navigating away commits a new document: the old document's held requests are stopped;
        /// the new document's own requests are served.
        @Test func navigatingAwayStopsTheOldDocumentsRequests() async throws {
            let hanging = HangingHandler(writesHead: true)
            try await FirefoxHarness.with { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(blankPage, for: "app", pathPrefix: "/next.html")
                try registry.register(hanging, for: "app", pathPrefix: "/hang")
            } _: { harness in
                try await harness.openOrigin()
                _ = try await harness.page.evaluate("for (let i = 0; i < 4; i++) fetch('/hang/' + i); true")
                #expect(await eventually { hanging.started == 4 })
                try await harness.page.navigate(to: "https://app.localhost/next.html")
                #expect(try await harness.page.evaluate("document.title").decode(as: String.self) == "blank")
                #expect(
                    await eventually { hanging.cancellations == 4 && harness.registry.metrics.live == 0 })
                #expect(harness.adapter.statistics.canceledByPage == 4, "\(harness.adapter.statistics)")
            }
        }

        /// Stopping the adapter fails the requests it holds: BiDi keeps a request blocked after its
        /// intercept is gone, so the page's fetch() waited forever.
        @Test func stoppingTheAdapterSettlesTheRequestsItHeld() async throws {
            let hanging = HangingHandler(writesHead: false)
            try await FirefoxHarness.with { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(hanging, for: "app", pathPrefix: "/hang")
            } _: { harness in
                try await harness.openOrigin()
                _ = try await harness.page.evaluate(
                    "window.settled = []; for (let i = 0; i < 3; i++) fetch('/hang/' + i).then(() => 'ok', e => e.name).then(r => settled.push(r)); true"
                )
                #expect(await eventually { hanging.started == 3 })
                let records = harness.adapter.records()
                await harness.adapter.stop()
                // The record sequence ends after the three stopped requests' records.
                let (read, ended) = await readToEnd(records, within: .seconds(30))
                #expect(ended, "the record sequence did not end")
                #expect(read.filter { $0.outcome == .stopped(reason: .adapterStopped) }.count == 3, "\(read)")
                let settled = try await eventually {
                    try await harness.page.evaluate("settled.length").decode(as: Int.self) == 3
                }
                #expect(settled, "the page's fetches settled after the stop")
                #expect(await eventually { hanging.cancellations == 3 })
            }
        }

        @Test func aHundredConcurrentFetchesAllSucceed() async throws {
            let counting = CountingHandler(StaticHandler("ok"))
            try await FirefoxHarness.with { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(counting, for: "app", pathPrefix: "/n")
            } _: { harness in
                try await harness.openOrigin()
                #expect(await eventually { harness.adapter.statistics.inFlight == 0 })
                let before = harness.adapter.statistics
                let count = try await harness.page.evaluate(
                    """
                    Promise.all(Array.from({length: 100}, (_, i) => fetch('/n/' + i, {cache: 'no-store'}).then(r => r.text())))
                      .then(texts => texts.filter(t => t === 'ok').length)
                    """
                ).decode(as: Int.self)
                #expect(count == 100)
                #expect(await eventually { harness.adapter.statistics.answered - before.answered == 100 })
                let statistics = harness.adapter.statistics
                #expect(statistics.inFlight == 0, "\(statistics)")
                #expect(harness.registry.metrics.finished == harness.registry.metrics.started)
                #expect(counting.handled == 100)
            }
        }

        /// A `network.beforeRequestSent` the adapter cannot read (handed to the connection as if
        /// Firefox had sent it) is counted and its request failed; the adapter keeps serving.
        @Test func aMalformedRequestEventIsCountedAndTheAdapterKeepsServing() async throws {
            try await FirefoxHarness.with(configure: { $0.transport = .interception }) { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(StaticHandler("ok"), for: "app", pathPrefix: "/n")
            } _: { harness in
                try await harness.openOrigin()
                harness.browser.connection.receive(
                    ByteBuffer(
                        string:
                            #"{"type":"event","method":"network.beforeRequestSent","params":{"isBlocked":true,"request":{"request":"999-x","headers":7}}}"#
                    ))
                #expect(await eventually { harness.adapter.statistics.malformedEvents == 1 })
                #expect(!harness.browser.connection.isClosed)
                #expect(
                    try await harness.page.evaluate("fetch('/n/1').then(r => r.text())").decode(as: String.self) == "ok"
                )
            }
        }

        /// A body that does not fit in one message (a 64 KiB message limit here) fails its request
        /// at once with an error naming the limit; the page sees a network error, not a hang, and
        /// the connection stays up. A video's open-ended ranges are narrowed to fit instead.
        struct CatalogueUnavailable: Error, Equatable {}

        /// A handler that throws fails the page's `fetch()` with a network error, and the record
        /// holds the handler's own error, as on WebKitGTK and Chromium.
        @Test func aHandlerThatThrowsFailsTheFetchAndTheRecordHoldsItsError() async throws {
            try await FirefoxHarness.with(configure: { $0.transport = .interception }) { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(
                    ClosureHandler(name: "failing") { _, _ in throw CatalogueUnavailable() }, for: "app",
                    pathPrefix: "/api")
            } _: { harness in
                try await harness.openOrigin()
                let records = harness.adapter.records()
                let outcome = try await harness.page.evaluate(
                    "fetch('/api/catalogue').then(r => 'status ' + r.status, e => e.name)"
                ).decode(as: String.self)
                #expect(outcome == "TypeError")
                var failed: SchemeRequestRecord?
                for await record in records where record.url.hasSuffix("/api/catalogue") {
                    failed = record
                    break
                }
                #expect(failed?.outcome == .failed)
                #expect(
                    failed?.error as? CatalogueUnavailable == CatalogueUnavailable(),
                    "\(String(describing: failed?.error))"
                )
                #expect(harness.adapter.statistics.failed == 1)
            }
        }

        @Test func aBodyOverTheMessageLimitFailsNamingTheLimit() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("firefox-big-\(UUID())")
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("media"), withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            // A route's prefix is part of the path the file handler looks up.
            try Data(count: 200_000).write(to: directory.appendingPathComponent("media/clip.webm"))
            try await FirefoxHarness.with(
                launchOptions: FirefoxLaunchOptions(maximumMessageSize: 64 << 10),
                configure: { $0.transport = .interception }
            ) { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(StaticHandler(Data(count: 200_000)), for: "app", pathPrefix: "/big")
                try registry.register(LocalFileHandler(root: directory), for: "app", pathPrefix: "/media")
            } _: { harness in
                try await harness.openOrigin()
                let records = harness.adapter.records()
                let started = ContinuousClock.now
                let outcome = try await harness.page.evaluate(
                    "fetch('/big').then(r => 'status ' + r.status, e => e.name)"
                ).decode(as: String.self)
                #expect(outcome == "TypeError")
                #expect(ContinuousClock.now - started < .seconds(10))
                var failure: EngineError?
                for await record in records where record.url.hasSuffix("/big") {
                    if record.outcome == .failed { failure = record.error as? EngineError }
                    break
                }
                #expect(failure?.code == .bodyTooLarge)
                #expect(failure?.message.contains("65536") == true, "\(String(describing: failure))")
                #expect(harness.adapter.statistics.bodyTooLarge == 1)
                // A fetch's open-ended range is answered as asked: the rest of the file does not fit a
                // message either, and fails the same way.
                let ranged = try await harness.page.evaluate(
                    "fetch('/media/clip.webm', {headers: {Range: 'bytes=0-'}}).then(r => 'status ' + r.status, e => e.name)"
                ).decode(as: String.self)
                #expect(ranged == "TypeError")
                #expect(harness.adapter.statistics.bodyTooLarge == 2)
                // A media element's open-ended range is narrowed to what a message carries, so it plays in parts.
                _ = try await harness.page.evaluate(
                    "const v = document.createElement('video'); v.preload = 'auto'; v.src = '/media/clip.webm'; document.body.append(v); true"
                )
                var media: SchemeRequestRecord?
                for await record in records where record.resourceType == "video" {
                    media = record
                    break
                }
                #expect(
                    media?.status == 206 && media?.bytes == harness.adapter.maximumBodySize,
                    "\(String(describing: media))")
            }
        }

        @Test(arguments: [FirefoxAdapterConfiguration.PassPolicy.continueRequest, .fail])
        func whenEveryHandlerPassesThePolicyApplies(policy: FirefoxAdapterConfiguration.PassPolicy) async throws {
            try await FirefoxHarness.with(configure: { $0.whenPassed = policy }) { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(
                    LocalFileHandler(root: FirefoxHarness.sampleApp), for: "app", pathPrefix: "/files")
            } _: { harness in
                try await harness.openOrigin()
                for path in ["/nothing-here", "/files/missing.txt"] {
                    let outcome = try await harness.page.evaluate(
                        "fetch('\(path)').then(r => 'status ' + r.status, e => e.name)"
                    ).decode(as: String.self)
                    // app.localhost resolves nowhere: continued requests fail in the network, failed ones at once.
                    #expect(outcome == "TypeError", "\(path)")
                }
                let statistics = harness.adapter.statistics
                switch policy {
                case .continueRequest: #expect(statistics.continued == 2, "\(statistics)")
                default: #expect(statistics.failed == 2, "\(statistics)")
                }
            }
        }

        @Test func pooledPagesAreVisibleAndReset() async throws {
            try await FirefoxHarness.with { registry in
                try registry.register(LocalFileHandler(root: FirefoxHarness.sampleApp), for: "app")
            } _: { harness in
                let pool = harness.browser.makePagePool(
                    configuration: SessionPoolConfiguration(warmCount: 2, maximumCount: 3))
                await pool.start()
                let holder = Holder()
                let first = try await pool.acquire(for: holder)
                let second = try await pool.acquire(for: holder)
                for page in [first, second] {
                    try await page.navigate(to: "https://app.localhost/index.html")
                    #expect(try await page.evaluate("document.visibilityState").decode(as: String.self) == "visible")
                    #expect(try await page.evaluate("window.sampleReport").decode(as: SampleReport.self).allPassed)
                }
                try await pool.recycle(first)
                let again = try await pool.acquire(for: holder)
                #expect(try await again.evaluate("location.href").decode(as: String.self) == "about:blank")
                try await pool.recycle(again)
                try await pool.recycle(second)
                await pool.shutDown()
            }
        }
    }

    final class Holder: Sendable {}

    /// A value set by a handler and read by the test.
    final class Received: Sendable {
        private let storage = Mutex<Data?>(nil)
        func set(_ data: Data) { storage.withLock { $0 = data } }
        var value: Data? { storage.withLock { $0 } }
    }

    /// How far a slow handler got.
    final class Progress: Sendable {
        private let counts = Mutex((first: 0, cancellations: 0))
        func wroteFirstChunk() { counts.withLock { $0.first += 1 } }
        func cancelled() { counts.withLock { $0.cancellations += 1 } }
        var first: Int { counts.withLock { $0.first } }
        var cancellations: Int { counts.withLock { $0.cancellations } }
    }
#endif
