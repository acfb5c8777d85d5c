import Foundation
import SchemeKit
import SchemeKitWebKitGTK
import Synchronization
import Testing

/// The adapter in the real engine: the sample app through `app://`, 404s, Range requests for video,
/// and stop detection when a page navigates away mid-response.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct WebKitAdapterTests {
    struct Image: Decodable {
        var width: Int
        var height: Int
        var ok: Bool
    }

    struct Report: Decodable {
        var css: Bool
        var module: Bool
        var image: Image
        var font: Bool
        var json: Bool
        var video: Bool
        var missing404: Bool
    }

    @Test func everyResourceOfTheSampleAppArrives() async throws {
        let harness = try WebKitHarness.get()
        let session = try await harness.makeSession()
        harness.adapter.clearLog()
        try await withTimeout(20, "loading the sample app") {
            try await session.load("app://localhost/index.html")
        }
        let json = try await withTimeout(20, "the sample report") {
            try await session.callAsyncFunction("return await window.sampleReport;")
        }
        let report = try JSONDecoder().decode(Report.self, from: Data(json.utf8))
        #expect(report.css, "stylesheet applied")
        #expect(report.module, "module imported a module")
        #expect(report.image.ok && report.image.width == 96 && report.image.height == 96, "images decoded")
        #expect(report.font, "web font loaded")
        #expect(report.json, "JSON fetched and parsed")
        withKnownIssue(
            "GStreamer on this Debian image rejects the clip (FormatError), over file:// too", isIntermittent: true
        ) {
            #expect(report.video, "video metadata loaded")
        }
        #expect(report.missing404, "a missing file answers 404 to fetch()")
        let title = try await session.evaluate("document.title")
        if report.video { #expect(title == "\"sample:ok\"") }
        let log = harness.adapter.log
        let byPath = Dictionary(log.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for path in ["/index.html", "/css/style.css", "/js/main.mjs", "/js/util.mjs", "/data/app.json"] {
            #expect(byPath[path]?.status == 200, "\(path) served")
            #expect(byPath[path]?.handler == "files", "\(path) answered by the file handler")
        }
        #expect(byPath["/data/does-not-exist.json"]?.status == 404)
        #expect(byPath["/data/does-not-exist.json"]?.handler == "not-found")
        await session.tearDown()
    }

    struct Partial: Decodable {
        var status: Int
        var length: Int
        var range: String?
        var first: Int
    }

    /// What a `<video>` seek sends (WebKit's media loader asks for byte ranges): a `Range` request
    /// from the page reaches the handler and its 206 reaches the page.
    @Test func aRangeRequestFromThePageGetsA206() async throws {
        let harness = try WebKitHarness.get()
        let session = try await harness.makeSession()
        try await withTimeout(20, "loading the sample app") {
            try await session.load("app://localhost/index.html")
        }
        harness.adapter.clearLog()
        let json = try await withTimeout(20, "a range fetch") {
            try await session.callAsyncFunction(
                """
                const response = await fetch('media/clip.webm', { headers: { Range: 'bytes=1000-5095' } });
                const bytes = new Uint8Array(await response.arrayBuffer());
                return { status: response.status, length: bytes.length,
                         range: response.headers.get('Content-Range'), first: bytes[0] };
                """)
        }
        let partial = try JSONDecoder().decode(Partial.self, from: Data(json.utf8))
        let file = try Data(contentsOf: harness.appDirectory.appendingPathComponent("media/clip.webm"))
        #expect(partial.status == 206)
        #expect(partial.length == 4096)
        #expect(partial.range == "bytes 1000-5095/\(file.count)")
        #expect(partial.first == Int(file[1000]))
        let logged = await eventually {
            harness.adapter.log.contains { $0.path == "/media/clip.webm" && $0.status == 206 }
        }
        #expect(logged, "the 206 is in the request log")
        await session.tearDown()
    }

    @Test func navigatingAwayMidResponseStopsTheTask() async throws {
        let harness = try WebKitHarness.get()
        let session = try await harness.makeSession()
        let before = harness.registry.metrics
        let startedBefore = harness.slow.record.withLock { $0.started }
        try await withTimeout(20, "loading the slow page") {
            try await session.load("app://slow/page.html")
        }
        let streaming = await eventually { harness.slow.record.withLock { $0.started } > startedBefore }
        #expect(streaming, "the streaming request reached the handler")
        try await Task.sleep(for: .milliseconds(200))
        try await withTimeout(20, "navigating away") { try await session.load("about:blank") }
        let stopped = await eventually(10) { harness.registry.metrics.stopped > before.stopped }
        #expect(stopped, "the engine's cancel became a stop: \(harness.registry.metrics)")
        let settled = await eventually(10) { harness.slow.record.withLock { $0.cancelled } > 0 }
        #expect(settled, "the handler saw the stop")
        #expect(harness.slow.record.withLock { $0.writesAfterCancel } == 0)
        #expect(harness.adapter.writesAfterStop == 0, "nothing reached WebKit after the stop")
        #expect(harness.adapter.log.contains { $0.path == "/stream" && $0.outcome == "stopped" })
        await session.tearDown()
    }

    @Test func destroyingTheViewMidResponseStopsTheTask() async throws {
        let harness = try WebKitHarness.get()
        let session = try await harness.makeSession()
        let before = harness.registry.metrics
        let startedBefore = harness.slow.record.withLock { $0.started }
        try await withTimeout(20, "loading the slow page") {
            try await session.load("app://slow/page.html")
        }
        _ = await eventually { harness.slow.record.withLock { $0.started } > startedBefore }
        await session.tearDown()
        let stopped = await eventually(10) { harness.registry.metrics.stopped > before.stopped }
        #expect(stopped, "destroying the view stopped its request: \(harness.registry.metrics)")
        let drained = await eventually(10) { harness.adapter.liveRequestCount == 0 }
        #expect(drained, "no request left behind")
        #expect(harness.adapter.writesAfterStop == 0)
    }
}
