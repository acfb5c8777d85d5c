// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import Synchronization
    import Testing
    @testable import SchemeKitWebKitGTK

    /// `<video>` on the app's own scheme, unchanged pages, in the real engine: played and seeked through
    /// the media extension and the registry (ranges included), refused without the extension and to
    /// pages of other origins, and stopped with its view.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct WebKitMediaTests {
        struct Playback: Decodable {
            var error: Int?
            var duration: Double?
            var currentTime: Double?
            var readyState: Int?
            var played: Bool?
        }

        /// Waits for the `<video id="v">` of the page to have metadata (or an error), and plays it a
        /// little when it can.
        static let waitForMetadataAndPlay = """
            const v = document.getElementById('v');
            const settled = () => v.readyState >= 1 || v.error;
            if (!settled()) await new Promise(resolve => {
              v.addEventListener('loadedmetadata', resolve, { once: true });
              v.addEventListener('error', resolve, { once: true });
              // With preload, a refused source reports its error on the element.
              setTimeout(resolve, 15000);
            });
            if (v.error || v.readyState < 1) return { error: v.error ? v.error.code : -1 };
            let played = false;
            try { await v.play(); played = true; } catch (e) {}
            if (played) await new Promise(resolve => {
              const check = () => v.currentTime > 0.3 ? resolve() : setTimeout(check, 20);
              check(); setTimeout(resolve, 5000);
            });
            v.pause();
            return { duration: v.duration, currentTime: v.currentTime, readyState: v.readyState, played };
            """

        static let seekToTwo = """
            const v = document.getElementById('v');
            await new Promise(resolve => {
              v.addEventListener('seeked', resolve, { once: true });
              v.addEventListener('error', resolve, { once: true });
              v.currentTime = 2;
              setTimeout(resolve, 15000);
            });
            if (v.readyState < 2) await new Promise(resolve => {
              v.addEventListener('canplay', resolve, { once: true });
              setTimeout(resolve, 5000);
            });
            return { error: v.error ? v.error.code : null, duration: v.duration, currentTime: v.currentTime,
                     readyState: v.readyState };
            """

        func playback(_ json: JavaScriptValue) throws -> Playback {
            try json.decode(as: Playback.self)
        }

        @Test func aVideoOnTheAppSchemePlaysAndSeeksThroughRanges() async throws {
            let harness = try WebKitHarness.get()
            try harness.installMediaClip()
            #expect(harness.adapter.mediaEnabled, "the media extension was found next to the test binary")
            try await tearingDown(try await harness.makeSession()) { session in
                try await withTimeLimit(.seconds(20), "loading the media page") {
                    try await session.load("app://media/page.html")
                }
                let started = try playback(
                    try await withTimeLimit(.seconds(40), "metadata and playback") {
                        try await session.callAsyncFunction(Self.waitForMetadataAndPlay)
                    })
                #expect(started.error == nil, "no media error: \(started)")
                #expect(abs((started.duration ?? 0) - MediaClip.duration) < 0.1, "duration: \(started)")
                #expect(started.played == true, "played: \(started)")
                let mark = harness.media.reads.count
                let seeked = try playback(
                    try await withTimeLimit(.seconds(40), "the seek") {
                        try await session.callAsyncFunction(Self.seekToTwo)
                    })
                #expect(seeked.error == nil, "no media error after the seek: \(seeked)")
                #expect(abs((seeked.currentTime ?? 0) - 2) <= 0.05, "currentTime: \(seeked)")
                #expect((seeked.readyState ?? 0) >= 2, "readyState: \(seeked)")
                #expect(abs((seeked.duration ?? 0) - MediaClip.duration) < 0.1, "duration: \(seeked)")
                let reads = harness.media.reads
                let afterSeek = reads.dropFirst(mark).filter { $0.path == "/clip.webm" }
                #expect(afterSeek.contains { $0.offset > 0 }, "a range read past 0 after the seek: \(reads)")
                let log = harness.log.filter { $0.url.hasPrefix("app://media/clip.webm") }
                #expect(log.contains { $0.status == 206 }, "206 answers went through the adapter: \(log)")
                #expect(log.allSatisfy { $0.handler == "files" }, "LocalFileHandler answered every range")
                await session.tearDown()
                #expect(harness.adapter.writesAfterStop == 0)
            }
        }

        /// The control: the same page in a web context that has the scheme but not the media extension
        /// fails with `MEDIA_ERR_SRC_NOT_SUPPORTED` — the extension is what makes it play.
        @Test func withoutTheExtensionTheSamePageCannotPlay() async throws {
            let harness = try WebKitHarness.get()
            try harness.installMediaClip()
            let plain = try await harness.plainContext()
            try await tearingDown(try await WebViewSession.make(executor: harness.glib.executor, context: plain)) {
                session in
                try await withTimeLimit(.seconds(20), "loading the media page") {
                    try await session.load("app://media/page.html")
                }
                let result = try playback(
                    try await withTimeLimit(.seconds(40), "the media error") {
                        try await session.callAsyncFunction(Self.waitForMetadataAndPlay)
                    })
                #expect(result.error == 4, "MEDIA_ERR_SRC_NOT_SUPPORTED: \(result)")
            }
        }

        /// A page of another origin (loopback http) can neither play nor fetch the app's media: the
        /// scheme is display-isolated, and the handler never hears of it.
        @Test func aPageFromAnotherOriginCannotReadTheAppsMedia() async throws {
            let harness = try WebKitHarness.get()
            try harness.installMediaClip()
            let site = FileManager.default.temporaryDirectory.appendingPathComponent("schemekit-origin-\(UUID())")
            try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: site) }
            let page = """
                <!doctype html><title>other</title>
                <video id="v" muted preload="auto" src="app://media/clip.webm?other-origin"></video>
                """
            try Data(page.utf8).write(to: site.appendingPathComponent("index.html"))
            let origin = try LoopbackOrigin(serving: site)
            defer { origin.stop() }
            let port = origin.port
            try await tearingDown(try await harness.makeSession()) { session in
                try await withTimeLimit(.seconds(20), "loading the other origin's page") {
                    try await session.load("http://127.0.0.1:\(port)/index.html")
                }
                let result = try playback(
                    try await withTimeLimit(.seconds(40), "the media error") {
                        try await session.callAsyncFunction(Self.waitForMetadataAndPlay)
                    })
                #expect(result.error != nil, "the other origin's <video> failed: \(result)")
                let fetched = try await withTimeLimit(.seconds(20), "a cross-origin fetch") {
                    try await session.callAsyncFunction(
                        """
                        try { const r = await fetch('app://media/clip.webm?other-origin-fetch');
                              return (await r.arrayBuffer()).byteLength; } catch (e) { return -1; }
                        """)
                }
                #expect(fetched == .number(-1), "the other origin's fetch() failed: \(fetched)")
                let reads = harness.media.reads.filter { $0.path == "/clip.webm" }
                #expect(
                    !harness.log.contains { $0.url.contains("other-origin") },
                    "no request of the other origin reached the registry: \(reads)")
            }
        }

        /// Destroying the view mid-playback stops the media task: the handler is cancelled, nothing is
        /// written after the stop, and no media stream is left.
        @Test func destroyingTheViewMidPlaybackStopsTheMediaTask() async throws {
            let harness = try WebKitHarness.get()
            _ = try MediaClip.data()
            let before = harness.slowMedia.record.withLock { $0 }
            try await tearingDown(try await harness.makeSession()) { session in
                try await withTimeLimit(.seconds(20), "loading the slow media page") {
                    try await session.load("app://slowmedia/page.html")
                }
                let streaming = await eventually {
                    harness.slowMedia.record.withLock { $0.chunks } > before.chunks + 2
                        && harness.adapter.liveMediaStreamCount > 0
                }
                #expect(streaming, "the clip is streaming: \(harness.slowMedia.record.withLock { $0 })")
                await session.tearDown()
                let stopped = await eventually {
                    harness.adapter.liveMediaStreamCount == 0
                        && harness.slowMedia.record.withLock { $0.cancelled } > before.cancelled
                }
                #expect(stopped, "the media task stopped: \(harness.slowMedia.record.withLock { $0 })")
                #expect(harness.slowMedia.record.withLock { $0.writesAfterCancel } == 0, "no write after the stop")
                #expect(harness.adapter.writesAfterStop == 0)
                #expect(
                    harness.log.contains {
                        $0.url.hasPrefix("app://slowmedia/clip.webm") && $0.wasStopped
                    })
            }
        }
    }
#endif
