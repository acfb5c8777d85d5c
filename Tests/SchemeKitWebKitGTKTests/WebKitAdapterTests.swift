// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import Synchronization
    import Testing

    @testable import SchemeKitWebKitGTK

    /// The adapter in the real engine: the sample app through `app://`, 404s, Range requests and a video
    /// seek served by them, and stop detection when a page navigates away mid-response.
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

        /// WebKitGTK has no way for a custom-scheme handler to redirect (`WebKitURISchemeRequest`
        /// takes a response, and a 3xx is just that): the page and `fetch()` get the 302 itself,
        /// where Chromium and Firefox follow it (their adapters' redirect tests). What the README's
        /// engine table and the Using WebKitGTK article (SchemeKitWebKitGTK.docc) say; this test
        /// notices a WebKit that starts to follow.
        @Test func aRedirectFromTheAppsSchemeIsNotFollowedByWebKitGTK() async throws {
            let harness = try WebKitHarness.get()
            try await tearingDown(try await harness.makeSession()) { session in
                try await withTimeLimit(.seconds(20), "loading the redirect") {
                    try await session.load("app://redirect/start")
                }
                let page = try await session.callAsyncFunction("return location.href + ' ' + document.title;")
                #expect(page == .string("app://redirect/start "))
                let fetched = try await session.callAsyncFunction(
                    "const r = await fetch('/start'); return r.status + ' ' + r.url + ' ' + r.redirected;")
                #expect(fetched == .string("302 app://redirect/start false"))
            }
        }

        @Test func everyResourceOfTheSampleAppArrives() async throws {
            let harness = try WebKitHarness.get()
            try await tearingDown(try await harness.makeSession()) { session in
                let mark = harness.logMark
                try await withTimeLimit(.seconds(20), "loading the sample app") {
                    try await session.load("app://localhost/index.html")
                }
                let json = try await withTimeLimit(.seconds(20), "the sample report") {
                    try await session.callAsyncFunction("return await window.sampleReport;")
                }
                let report = try json.decode(as: Report.self)
                #expect(report.css, "stylesheet applied")
                #expect(report.module, "module imported a module")
                #expect(report.image.ok && report.image.width == 96 && report.image.height == 96, "images decoded")
                #expect(report.font, "web font loaded")
                #expect(report.json, "JSON fetched and parsed")
                // The clip plays through the media extension (WebKitMediaTests seeks). The page gives each
                // check 4 s; a loaded machine running suites in parallel can take longer to set up a
                // media player, so the video gets its own, longer wait here.
                let video = try await withTimeLimit(.seconds(30), "the sample app's video metadata") {
                    try await session.callAsyncFunction(
                        """
                        const v = document.getElementById('clip');
                        if (!(v.readyState >= 1)) await new Promise(resolve => {
                          v.addEventListener('loadedmetadata', resolve, { once: true });
                          setTimeout(resolve, 20000);
                        });
                        return v.readyState >= 1 && v.duration > 0 && !v.error;
                        """)
                }
                #expect(
                    video == .bool(true),
                    "video metadata loaded through app:// (page check within 4 s: \(report.video))")
                #expect(report.missing404, "a missing file answers 404 to fetch()")
                let title = try await session.evaluate("document.title")
                if report.video { #expect(title == .string("sample:ok")) }
                let log = harness.log(since: mark)
                // WebKit may stop a request and ask again (a process swap restarts the main resource, as
                // a CI run showed for /index.html): the entry that counts is the one that was answered.
                // The log is the shared adapter's: suites running alongside (a PROPFIND of
                // /data/app.json, answered 405) add their own entries, so only this page's GETs count.
                let byPath = Dictionary(
                    log.filter { $0.method == "GET" }.map { ($0.path, $0) },
                    uniquingKeysWith: { first, second in first.status != nil ? first : second })
                for path in ["/index.html", "/css/style.css", "/js/main.mjs", "/js/util.mjs", "/data/app.json"] {
                    #expect(byPath[path]?.status == 200, "\(path) served")
                    #expect(byPath[path]?.handler == "files", "\(path) answered by the file handler")
                }
                #expect(byPath["/data/does-not-exist.json"]?.status == 404)
                #expect(byPath["/data/does-not-exist.json"]?.handler == "not-found")
            }
        }

        struct Partial: Decodable {
            var status: Int
            var length: Int
            var range: String?
            var first: Int
        }

        /// One `Range` request from the page reaches the handler, and its 206 (status, `Content-Range`,
        /// exact bytes) reaches the page.
        @Test func aRangeRequestFromThePageGetsA206() async throws {
            let harness = try WebKitHarness.get()
            try await tearingDown(try await harness.sessionShowingSampleApp()) { session in
                let run = UUID().uuidString  // tells this test's request apart in the shared log
                let json = try await withTimeLimit(.seconds(20), "a range fetch") {
                    try await session.callAsyncFunction(
                        """
                        const response = await fetch('media/clip.webm?run=\(run)', { headers: { Range: 'bytes=1000-5095' } });
                        const bytes = new Uint8Array(await response.arrayBuffer());
                        return { status: response.status, length: bytes.length,
                                 range: response.headers.get('Content-Range'), first: bytes[0] };
                        """)
                }
                let partial = try json.decode(as: Partial.self)
                let file = try Data(contentsOf: harness.appDirectory.appendingPathComponent("media/clip.webm"))
                #expect(partial.status == 206)
                #expect(partial.length == 4096)
                #expect(partial.range == "bytes 1000-5095/\(file.count)")
                #expect(partial.first == Int(file[1000]))
                let logged = await eventually {
                    harness.log.contains { $0.url.hasSuffix("/media/clip.webm?run=\(run)") && $0.status == 206 }
                }
                #expect(logged, "the 206 is in the request log")
            }
        }

        struct RangeFetch: Decodable {
            var range: String
            var status: Int
            var contentRange: String?
            var bytes: Int
            var afterSeek: Bool
        }

        struct Playback: Decodable {
            var mseSupported: Bool
            var fetches: [RangeFetch]
            var duration: Double
            var width: Int
            var height: Int
            var bufferedEndBeforeSeek: Double
            var currentTime: Double
            var readyState: Int
        }

        /// A `<video>` seek served by Range requests. WebKitGTK cannot point `<video src>` at a custom
        /// scheme (see the known issue above), so the page plays the clip the way streaming players do:
        /// Media Source Extensions fed by `fetch()` with `Range` headers through `app://`. The player
        /// buffers only the start, seeks to 1.4 s (past the buffer), and fetches the rest on `seeking`;
        /// the decoder gets the real WebM, so wrong bytes, ranges or lengths would break playback.
        @Test func aVideoSeekIsServedByRangeRequests() async throws {
            let harness = try WebKitHarness.get()
            try await tearingDown(try await harness.sessionShowingSampleApp()) { session in
                let run = UUID().uuidString  // tells this test's requests apart in the shared log
                let json = try await withTimeLimit(.seconds(30), "MSE playback and seek") {
                    try await session.callAsyncFunction(Self.rangePlayer(run: run))
                }
                let playback = try json.decode(as: Playback.self)
                try #require(playback.mseSupported, "MediaSource supports WebM/VP9")
                let size = try Data(contentsOf: harness.appDirectory.appendingPathComponent("media/clip.webm")).count
                #expect(playback.width == 320 && playback.height == 180, "the decoder saw the clip's frames")
                #expect(abs(playback.duration - 1.5) < 0.05, "duration \(playback.duration)")
                #expect(playback.bufferedEndBeforeSeek < 1.4, "the seek target was not buffered yet")
                #expect(abs(playback.currentTime - 1.4) < 0.01, "the seek landed")
                #expect(playback.readyState >= 2, "a frame is available at the new position")
                #expect(playback.fetches.contains { $0.afterSeek }, "the seek needed more ranges")
                #expect(playback.fetches.map(\.bytes).reduce(0, +) == size, "every byte fetched exactly once")
                for fetch in playback.fetches {
                    #expect(fetch.status == 206, "\(fetch.range)")
                    let bounds = fetch.range.dropFirst("bytes=".count).split(separator: "-").compactMap { Int($0) }
                    #expect(fetch.contentRange == "bytes \(bounds[0])-\(bounds[1])/\(size)")
                    #expect(fetch.bytes == bounds[1] - bounds[0] + 1)
                }
                let logged = await eventually {
                    harness.log.filter { $0.url.hasSuffix("/media/clip.webm?run=\(run)") && $0.status == 206 }.count
                        == playback.fetches.count
                }
                #expect(logged, "each range is a 206 in the request log: \(harness.log.map(\.status))")
            }
        }

        /// The page side of ``aVideoSeekIsServedByRangeRequests()``: a minimal MSE player.
        static func rangePlayer(run: String) -> String {
            """
            const type = 'video/webm; codecs="vp9"';
            if (!window.MediaSource || !MediaSource.isTypeSupported(type)) return { mseSupported: false };
            const url = 'media/clip.webm?run=\(run)';
            const chunk = 4096;
            const size = Number((await fetch(url, { method: 'HEAD' })).headers.get('Content-Length'));
            const video = document.createElement('video');
            video.muted = true;
            document.body.appendChild(video);
            const source = new MediaSource();
            video.src = URL.createObjectURL(source);
            await new Promise((resolve) => source.addEventListener('sourceopen', resolve, { once: true }));
            const buffer = source.addSourceBuffer(type);
            const fetches = [];
            let next = 0;
            let afterSeek = false;
            const appendNext = async () => {
              const range = `bytes=${next}-${Math.min(size, next + chunk) - 1}`;
              const response = await fetch(url, { headers: { Range: range } });
              const bytes = await response.arrayBuffer();
              fetches.push({ range, status: response.status, contentRange: response.headers.get('Content-Range'),
                             bytes: bytes.byteLength, afterSeek });
              next += bytes.byteLength;
              buffer.appendBuffer(bytes);
              await new Promise((resolve) => buffer.addEventListener('updateend', resolve, { once: true }));
            };
            while (video.readyState < HTMLMediaElement.HAVE_METADATA && next < size) await appendNext();
            const bufferedEndBeforeSeek = buffer.buffered.length ? buffer.buffered.end(0) : 0;
            const seeked = new Promise((resolve) => video.addEventListener('seeked', resolve, { once: true }));
            video.currentTime = 1.4;
            afterSeek = true;
            while (next < size) await appendNext();
            source.endOfStream();
            await seeked;
            return { mseSupported: true, fetches, duration: video.duration, width: video.videoWidth,
                     height: video.videoHeight, bufferedEndBeforeSeek, currentTime: video.currentTime,
                     readyState: video.readyState };
            """
        }

        /// A handler's head, body writes and finish go into the response's buffer from the handler's
        /// thread: they all return while the GLib main context is busy with something else, and the
        /// page still gets the whole body once the main context is free.
        @Test func handlerWritesDoNotWaitForTheMainContext() async throws {
            let harness = try WebKitHarness.get()
            try await tearingDown(try await harness.makeSession()) { session in
                try await withTimeLimit(.seconds(20), "loading the page") {
                    try await session.load("app://offmain/page.html")
                }
                let before = harness.offMain.record.withLock { $0 }
                let text = try await withTimeLimit(.seconds(20), "fetching the body") {
                    try await session.callAsyncFunction("return await (await fetch('/body')).text();")
                }
                #expect(text == .string(OffMainWriteHandler.chunks.joined()))
                let after = harness.offMain.record.withLock { $0 }
                #expect(after.served == before.served + 1)
                #expect(
                    after.wroteWhileMainContextBusy == before.wroteWhileMainContextBusy + 1,
                    "head, body and finish returned without the main context")
                let size = OffMainWriteHandler.chunks.joined().utf8.count
                let logged = await eventually {
                    harness.log.contains { $0.path == "/body" && $0.outcome == .answered && $0.bytes == size }
                }
                #expect(logged, "the response is in the request log with its \(size) bytes")
            }
        }

        @Test func navigatingAwayMidResponseStopsTheTask() async throws {
            let harness = try WebKitHarness.get()
            try await tearingDown(try await harness.makeSession()) { session in
                let before = harness.registry.metrics
                let statisticsBefore = harness.adapter.statistics
                let startedBefore = harness.slow.record.withLock { $0.started }
                try await withTimeLimit(.seconds(20), "loading the slow page") {
                    try await session.load("app://slow/page.html")
                }
                let streaming = await eventually { harness.slow.record.withLock { $0.started } > startedBefore }
                #expect(streaming, "the streaming request reached the handler")
                // Mid-response: the page has the stream's head (its fetch() resolved) while the
                // handler goes on writing.
                let midResponse = await eventually {
                    (try? await session.evaluate("window.streaming === true")) == .bool(true)
                }
                #expect(midResponse, "the page got the stream's head")
                try await withTimeLimit(.seconds(20), "navigating away") { try await session.load("about:blank") }
                let stopped = await eventually { harness.registry.metrics.stopped > before.stopped }
                #expect(stopped, "the engine's cancel became a stop: \(harness.registry.metrics)")
                let settled = await eventually { harness.slow.record.withLock { $0.cancelled } > 0 }
                #expect(settled, "the handler saw the stop")
                #expect(harness.slow.record.withLock { $0.writesAfterCancel } == 0)
                #expect(harness.adapter.writesAfterStop == 0, "nothing reached WebKit after the stop")
                #expect(harness.log.contains { $0.path == "/stream" && $0.wasStopped })
                // Counted as on the browsers: intercepted, and stopped because the page canceled it.
                let statistics = harness.adapter.statistics
                #expect(statistics.intercepted >= statisticsBefore.intercepted + 2, "\(statistics)")
                #expect(statistics.answered >= statisticsBefore.answered + 1, "\(statistics)")
                #expect(statistics.stopped >= statisticsBefore.stopped + 1, "\(statistics)")
                #expect(
                    statistics.canceledByPage - statisticsBefore.canceledByPage == statistics.stopped
                        - statisticsBefore.stopped)
                #expect(statistics.bytesAnswered > statisticsBefore.bytesAnswered)
            }
        }

        @Test func destroyingTheViewMidResponseStopsTheTask() async throws {
            let harness = try WebKitHarness.get()
            try await tearingDown(try await harness.makeSession()) { session in
                let before = harness.registry.metrics
                let statisticsBefore = harness.adapter.statistics
                let startedBefore = harness.slow.record.withLock { $0.started }
                try await withTimeLimit(.seconds(20), "loading the slow page") {
                    try await session.load("app://slow/page.html")
                }
                _ = await eventually { harness.slow.record.withLock { $0.started } > startedBefore }
                // The streaming request's sink (with its body pipe) must be freed once the view is gone.
                weak let sink = harness.adapter.liveSinks.first { $0.url.hasPrefix("app://slow/stream") }
                #expect(sink != nil, "the streaming request is live")
                await session.tearDown()
                let stopped = await eventually { harness.registry.metrics.stopped > before.stopped }
                #expect(stopped, "destroying the view stopped its request: \(harness.registry.metrics)")
                let drained = await eventually { harness.adapter.liveRequestCount == 0 }
                #expect(drained, "no request left behind")
                let freed = await eventually { sink == nil }
                #expect(freed, "the stopped request's sink was freed (no reference cycle keeps it)")
                #expect(harness.adapter.writesAfterStop == 0)
                // WebKit does not say a closed view from a canceled load: counted as canceledByPage.
                let statistics = harness.adapter.statistics
                #expect(statistics.stopped >= statisticsBefore.stopped + 1, "\(statistics)")
                #expect(
                    statistics.canceledByPage - statisticsBefore.canceledByPage == statistics.stopped
                        - statisticsBefore.stopped)
                #expect(statistics.pageClosed == 0)
            }
        }
    }
#endif
