// Built with the package trait `WebKitGTK`, `Chromium`, `Firefox` or several: each test runs on every
// engine built.
#if WebKitGTK || Chromium || Firefox
    import Foundation
    import LoopbackTestSupport
    import Testing

    #if canImport(Glibc)
        import Glibc
    #endif

    /// An engine `headless-render` was built with.
    enum Engine: String, CaseIterable, CustomTestStringConvertible {
        case webkit
        case chromium
        case firefox

        /// The engines of this build.
        static let built: [Engine] = {
            var engines: [Engine] = []
            #if WebKitGTK
                engines.append(.webkit)
            #endif
            #if Chromium
                engines.append(.chromium)
            #endif
            #if Firefox
                engines.append(.firefox)
            #endif
            return engines
        }()

        /// Where the engine loads `/index.html` of the directory.
        var indexURL: String {
            self == .webkit ? "app://localhost/index.html" : "https://app.localhost/index.html"
        }

        var testDescription: String { rawValue }

        /// The binary under test: `SCHEMEKIT_HEADLESS_RENDER_WEBKIT` / `…_CHROMIUM` / `…_FIREFOX` when set (what
        /// `Scripts/test.sh` builds from a clean directory with the README's own command for the
        /// engine, so that a product the README's build leaves out shows up here), else the
        /// `headless-render` built next to this test bundle.
        var binary: URL {
            let variable = "SCHEMEKIT_HEADLESS_RENDER_\(rawValue.uppercased())"
            if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty {
                return URL(fileURLWithPath: path)
            }
            return ToolProcess.binary("headless-render")
        }
    }

    /// `headless-render` on a given engine.
    func headlessRender(
        _ engine: Engine, _ arguments: [String], executable: URL? = nil, environment: [String: String] = [:],
        timeout: Double = 60
    ) throws -> ToolProcess {
        try ToolProcess.run(
            "headless-render", ["--engine", engine.rawValue] + arguments, executable: executable ?? engine.binary,
            environment: environment, timeout: timeout)
    }

    /// `headless-render`, the built binary run as a user runs it, on each engine it was built with
    /// (WebKitGTK under the test's X display): what it prints for a page, its JSON report, snapshots,
    /// iterations, cache flag, and its exits on bad input.
    @Suite(.serialized, .timeLimit(.minutes(3)))
    struct HeadlessRenderTests {
        /// What `--json` prints when a run fails.
        struct Failure: Decodable, Equatable {
            var engine: String
            var url: String
            var error: String
            var exitStatus: Int32
        }

        struct Report: Decodable {
            var engine: String
            struct Request: Decodable {
                var path: String
                var status: Int
                var bytes: Int
                var handler: String
                var ms: Double
                var error: String?
            }

            var url: String
            var loadMs: Double
            var requests: [Request]
            var console: [String]
            var eval: String?
            var screenshot: String?
            var pdf: String?
            var coldMedianMs: Double?
            var warmMedianMs: Double?
            var coldMs: [Double]?
            var warmMs: [Double]?
        }

        /// A directory with `index.html` holding `html`, removed by the caller.
        static func site(_ html: String) throws -> URL {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("headless-render-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(html.utf8).write(to: directory.appendingPathComponent("index.html"))
            return directory
        }

        /// The sample app's own report (`window.sampleReport`).
        struct SampleReport: Decodable {
            struct Image: Decodable { var width: Int, height: Int, ok: Bool }
            var css: Bool, module: Bool, image: Image, font: Bool, json: Bool, video: Bool, missing404: Bool
        }

        static let sampleApp = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Samples/app")

        /// Every self-check of the sample app passes through `headless-render` on each engine, its
        /// eager `<video>` included (Chromium never asked for the clip while the pool's warm page hid
        /// the page in use; WebKitGTK plays it only with the media extension).
        @Test(arguments: Engine.built) func theSampleAppPassesEverySelfCheckWithEveryRequestInTheReport(
            engine: Engine
        ) async throws {
            let app = Self.sampleApp
            let run = try headlessRender(engine, [app.path, "--json", "--eval", "window.sampleReport"])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
            #expect(report.url == engine.indexURL)
            #expect(report.loadMs > 0)
            let checks = try JSONDecoder().decode(SampleReport.self, from: Data((report.eval ?? "").utf8))
            #expect(checks.css, "stylesheet applied")
            #expect(checks.module, "module imported a module")
            #expect(checks.image.ok && checks.image.width == 96, "PNG and JPEG decoded")
            #expect(checks.font, "web font loaded")
            #expect(checks.json, "JSON fetched and parsed")
            #expect(checks.video, "the eager <video>'s metadata loaded through the app's scheme")
            #expect(checks.missing404, "a missing file answered 404")
            let index = try #require(report.requests.first { $0.path == "/index.html" })
            let size = try FileManager.default.attributesOfItem(atPath: app.appendingPathComponent("index.html").path)[
                .size]
            #expect(index.status == 200 && index.handler == "files" && index.bytes == size as? Int)
            #expect(report.requests.contains { $0.path == "/data/does-not-exist.json" && $0.status == 404 })
            #expect(report.requests.contains { $0.path == "/media/clip.webm" && [200, 206].contains($0.status) })
            #expect(report.coldMedianMs == nil, "no iterations asked for")
        }

        /// A page nobody here wrote the way the sample is written: an eager, muted `<video>` with no
        /// user gesture, seeked to 2.5 s of a 5 s clip. It must load its metadata, seek, and be ready
        /// to play there, on every engine.
        @Test(arguments: Engine.built) func anEagerVideoLoadsSeeksAndIsReady(engine: Engine) async throws {
            let site = try Self.site(
                """
                <!doctype html><title>video</title>
                <video id="v" muted preload="auto" src="clip.webm"></video>
                <script>
                window.report = new Promise((resolve) => {
                  const v = document.getElementById('v');
                  const done = () => resolve({ readyState: v.readyState, duration: v.duration,
                                               currentTime: v.currentTime, error: v.error ? v.error.code : 0 });
                  v.addEventListener('loadedmetadata', () => { v.currentTime = 2.5; }, { once: true });
                  v.addEventListener('seeked', () => {
                    if (v.readyState >= 2) done(); else v.addEventListener('canplay', done, { once: true });
                  }, { once: true });
                  v.addEventListener('error', done, { once: true });
                  setTimeout(done, 15000);
                });
                </script>
                """)
            defer { try? FileManager.default.removeItem(at: site) }
            try TestMediaClip.webm(seconds: 5).write(to: site.appendingPathComponent("clip.webm"))
            let run = try headlessRender(engine, [site.path, "--json", "--eval", "window.report"])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
            struct Playback: Decodable { var readyState: Int, duration: Double?, currentTime: Double, error: Int }
            let playback = try JSONDecoder().decode(Playback.self, from: Data((report.eval ?? "").utf8))
            #expect(playback.error == 0, "no media error: \(playback)")
            #expect(abs((playback.duration ?? 0) - 5) < 0.1, "duration: \(playback)")
            #expect(abs(playback.currentTime - 2.5) < 0.1, "seeked to 2.5 s: \(playback)")
            #expect(playback.readyState >= 2, "ready at the new position: \(playback)")
            #expect(report.requests.contains { $0.path == "/clip.webm" }, "the engine asked for the clip")
        }

        /// A WebKitGTK `headless-render` whose media extension is not next to it says so in one line
        /// and exits 2, rather than rendering a page whose media silently fails; `--no-media` renders
        /// without it.
        @Test func withoutItsMediaExtensionWebKitSaysHowToGetItAndExits2() async throws {
            guard Engine.built.contains(.webkit) else { return }
            let alone = try Self.webKitBinaryAlone()
            defer { try? FileManager.default.removeItem(at: alone) }
            let copy = alone.appendingPathComponent("headless-render")
            let site = try Self.site("<!doctype html><title>t</title>")
            defer { try? FileManager.default.removeItem(at: site) }
            let refused = try headlessRender(.webkit, [site.path], executable: copy)
            #expect(refused.status == 2)
            let lines = refused.stderr.split(separator: "\n").filter { $0.hasPrefix("headless-render:") }
            #expect(lines.count == 1, "one line: \(refused.stderr)")
            #expect(
                refused.stderr.contains("libSchemeKitWebKitGTKMedia.so") && refused.stderr.contains("--no-media")
                    && refused.stderr.contains("swift build --traits WebKitGTK"), "\(refused.stderr)")
            let plain = try headlessRender(.webkit, [site.path, "--no-media"], executable: copy)
            #expect(plain.status == 0, "stderr: \(plain.stderr)")
        }

        /// A new directory holding a copy of the WebKitGTK `headless-render` and nothing else (no
        /// media extension next to it); the caller removes it.
        static func webKitBinaryAlone() throws -> URL {
            let alone = FileManager.default.temporaryDirectory.appendingPathComponent("headless-render-\(UUID())")
            try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: Engine.webkit.binary, to: alone.appendingPathComponent("headless-render"))
            return alone
        }

        /// A build without the trait `WebKitGTK` writes an empty `libSchemeKitWebKitGTKMedia.so`
        /// (its C source compiles to nothing), and a later `swift run --traits WebKitGTK
        /// headless-render` leaves it in place. headless-render used to load it silently, and every
        /// `<video>` on the app's scheme failed with `MEDIA_ERR_SRC_NOT_SUPPORTED`: now it says so in
        /// one line, naming the command that builds the real one, and exits 2.
        @Test func aStubMediaExtensionIsNamedAndExits2() async throws {
            guard Engine.built.contains(.webkit) else { return }
            let alone = try Self.webKitBinaryAlone()
            defer { try? FileManager.default.removeItem(at: alone) }
            let copy = alone.appendingPathComponent("headless-render")
            // What the trait-less build compiles: the source with SCHEMEKIT_WEBKITGTK undefined.
            let stub = alone.appendingPathComponent("libSchemeKitWebKitGTKMedia.so")
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(
                    "Sources/SchemeKitWebKitGTKMedia/SchemeKitMediaSource.c")
            let compiler = try ToolProcess.run(
                "clang", ["clang", "-shared", "-fPIC", "-o", stub.path, source.path],
                executable: URL(fileURLWithPath: "/usr/bin/env"))
            #expect(compiler.status == 0, "clang: \(compiler.stderr)")
            let site = try Self.site("<!doctype html><title>t</title>")
            defer { try? FileManager.default.removeItem(at: site) }
            let refused = try headlessRender(.webkit, [site.path], executable: copy)
            #expect(refused.status == 2)
            let lines = refused.stderr.split(separator: "\n").filter { $0.hasPrefix("headless-render:") }
            #expect(lines.count == 1, "one line: \(refused.stderr)")
            #expect(
                refused.stderr.contains("is a stub") && refused.stderr.contains(stub.path)
                    && refused.stderr.contains("swift build --traits WebKitGTK"), "\(refused.stderr)")
            // The real extension, built with the trait, is accepted.
            let real = Engine.webkit.binary.deletingLastPathComponent().appendingPathComponent(
                "libSchemeKitWebKitGTKMedia.so")
            try FileManager.default.removeItem(at: stub)
            try FileManager.default.copyItem(at: real, to: stub)
            let plain = try headlessRender(.webkit, [site.path], executable: copy)
            #expect(plain.status == 0, "stderr: \(plain.stderr)")
        }

        @Test(arguments: Engine.built) func theTextReportListsRequestsAndTheConsole(engine: Engine) async throws {
            let site = try Self.site(
                "<!doctype html><title>t</title><script>console.log('hello', 42); console.warn('careful');</script>")
            defer { try? FileManager.default.removeItem(at: site) }
            let run = try headlessRender(engine, [site.path])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("loaded \(engine.indexURL) in ") == true, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("  200 /index.html ") && $0.contains(" B files ") }, "\(lines)")
            #expect(lines.contains("console log: hello 42"), "\(lines)")
            #expect(lines.contains("console warn: careful"), "\(lines)")
        }

        @Test(arguments: Engine.built) func aScreenshotIsAPNGFile(engine: Engine) async throws {
            let site = try Self.site("<!doctype html><body style='background:#0a0'><h1>snap</h1>")
            defer { try? FileManager.default.removeItem(at: site) }
            let png = site.appendingPathComponent("shot.png")
            let run = try headlessRender(engine, [site.path, "--screenshot", png.path, "--json"])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let bytes = try Data(contentsOf: png)
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "PNG signature")
            #expect(bytes.count > 100)
            let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
            #expect(report.screenshot == png.path)
        }

        @Test(arguments: Engine.built) func iterationsReportColdAndWarmLoads(engine: Engine) async throws {
            let site = try Self.site("<!doctype html><title>t</title><p>x")
            defer { try? FileManager.default.removeItem(at: site) }
            let run = try headlessRender(engine, [site.path, "--iterations", "2", "--json"])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
            #expect(report.coldMs?.count == 2)
            #expect(report.warmMs?.count == 2)
            #expect((report.coldMedianMs ?? 0) > 0 && (report.warmMedianMs ?? 0) > 0)
            let text = try headlessRender(engine, [site.path, "--iterations", "2"])
            #expect(text.status == 0, "stderr: \(text.stderr)")
            let lines = text.stdout.split(separator: "\n")
            #expect(lines.contains { $0.hasPrefix("cold median ") && $0.contains(" ms, p90 ") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("warm median ") && $0.contains(" ms, p90 ") }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("warm is ") && $0.hasSuffix("x faster") }, "\(lines)")
        }

        @Test(
            arguments: Engine.built,
            [("immutable", "max-age=31536000, immutable"), ("revalidate", "no-cache")])
        func theCacheFlagSetsCacheControl(engine: Engine, flag: (String, String)) async throws {
            let (flag, expected) = flag
            let site = try Self.site("<!doctype html><title>t</title>")
            defer { try? FileManager.default.removeItem(at: site) }
            let run = try headlessRender(
                engine,
                [
                    site.path, "--cache", flag, "--json", "--eval",
                    "fetch('index.html', { cache: 'no-store' }).then((r) => r.headers.get('cache-control'))",
                ])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
            #expect(report.eval == "\"\(expected)\"")
        }

        /// `--fallback`: what the directory lacks comes from a real origin on loopback (python's
        /// `http.server`), its status passed through, and the request log names the network handler.
        @Test(arguments: Engine.built) func theFallbackFetchesWhatTheDirectoryLacksFromTheOrigin(engine: Engine)
            async throws
        {
            let site = try Self.site("<!doctype html><title>t</title>")
            let originDirectory = try Self.site("<!doctype html><title>origin</title>")
            defer {
                try? FileManager.default.removeItem(at: site)
                try? FileManager.default.removeItem(at: originDirectory)
            }
            try Data("from the origin".utf8).write(to: originDirectory.appendingPathComponent("remote.txt"))
            let origin = try LoopbackOrigin(serving: originDirectory)
            defer { origin.stop() }
            let run = try headlessRender(
                engine,
                [
                    site.path, "--fallback", "http://127.0.0.1:\(origin.port)", "--json", "--eval",
                    "Promise.all([fetch('remote.txt').then((r) => r.text()), fetch('gone.txt').then((r) => r.status)])",
                ])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
            #expect(report.eval == "[\"from the origin\",404]")
            #expect(report.requests.contains { $0.path == "/index.html" && $0.handler == "files" })
            #expect(
                report.requests.contains { $0.path == "/remote.txt" && $0.status == 200 && $0.handler == "network" })
            #expect(report.requests.contains { $0.path == "/gone.txt" && $0.status == 404 && $0.handler == "network" })

            // The page itself may come from the origin: without a local index.html, the origin's loads.
            try FileManager.default.removeItem(at: site.appendingPathComponent("index.html"))
            let fromOrigin = try headlessRender(
                engine,
                [
                    site.path, "--fallback", "http://127.0.0.1:\(origin.port)", "--json", "--eval", "document.title",
                ])
            #expect(fromOrigin.status == 0, "stderr: \(fromOrigin.stderr)")
            let originReport = try JSONDecoder().decode(Report.self, from: Data(fromOrigin.lastLine.utf8))
            #expect(originReport.eval == "\"origin\"", "the origin's index.html, titled 'origin'")
        }

        /// An origin that closes the connection mid-body: the page's `fetch()` fails, and the report
        /// says the request failed (with why) on every engine, never a plain 200.
        @Test(arguments: Engine.built) func aResponseCutShortIsReportedAsFailed(engine: Engine) async throws {
            let site = try Self.site(
                "<!doctype html><title>t</title><script>window.r = fetch('cut.bin?size=100000&cut=1')"
                    + ".then((r) => r.arrayBuffer()).then((b) => b.byteLength, (e) => e.name);</script>")
            defer { try? FileManager.default.removeItem(at: site) }
            let origin = try OriginProcess(maxLifetime: 120)
            defer { origin.stop() }
            let run = try headlessRender(
                engine,
                [site.path, "--fallback", "http://127.0.0.1:\(origin.port)", "--json", "--eval", "window.r"])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
            #expect(report.eval == "\"TypeError\"")
            let cut = try #require(report.requests.first { $0.path == "/cut.bin" })
            #expect(cut.error != nil, "\(cut)")
        }

        @Test(arguments: Engine.built) func badArgumentsExitWith64AndOneClearLine(engine: Engine) async throws {
            let empty = FileManager.default.temporaryDirectory.appendingPathComponent("headless-render-\(UUID())")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: empty) }
            let missing = try headlessRender(engine, ["/nonexistent/site"])
            #expect(missing.status == 64)
            #expect(missing.stderr.contains("no such directory: /nonexistent/site"), "\(missing.stderr)")
            let noIndex = try headlessRender(engine, [empty.path])
            #expect(noIndex.status == 64)
            #expect(noIndex.stderr.contains("/index.html not found in"), "\(noIndex.stderr)")
            let zero = try headlessRender(engine, [empty.path, "--path", "/", "--iterations", "0"])
            #expect(zero.status == 64)
            #expect(zero.stderr.contains("--iterations must be at least 1"), "\(zero.stderr)")
            let ftp = try headlessRender(engine, [empty.path, "--path", "/", "--fallback", "ftp://origin.example"])
            #expect(ftp.status == 64)
            #expect(ftp.stderr.contains("--fallback must be an http or https origin"), "\(ftp.stderr)")
            // An output that is a directory, or empty (an unset shell variable), is refused before
            // anything runs, and the directory keeps what it holds.
            let kept = empty.appendingPathComponent("keep.txt")
            try Data("keep".utf8).write(to: kept)
            for (option, value) in [("--pdf", empty.path), ("--pdf", ""), ("--screenshot", empty.path)] {
                let output = try headlessRender(engine, [empty.path, "--path", "/", option, value])
                #expect(output.status == 64, "\(option) '\(value)'")
                #expect(
                    output.stderr.contains("is a directory") || output.stderr.contains("not an empty one"),
                    "\(output.stderr)")
            }
            #expect(try String(contentsOf: kept, encoding: .utf8) == "keep")
            for value in ["inf", "1e19", "0"] {
                let timeout = try headlessRender(engine, [empty.path, "--path", "/", "--timeout", value])
                #expect(timeout.status == 64, "--timeout \(value)")
                #expect(timeout.stderr.contains("--timeout must be positive"), "\(timeout.stderr)")
            }
            for (value, reason) in [("bad scheme", "invalid scheme name"), ("https", "handled by the web engine")] {
                let scheme = try headlessRender(engine, [empty.path, "--path", "/", "--scheme", value])
                #expect(scheme.status == 64, "--scheme \(value): \(scheme.stderr)")
                #expect(
                    scheme.stderr.contains("invalid --scheme: ") && scheme.stderr.contains(reason), "\(scheme.stderr)")
            }
        }

        /// `--path` as a user writes it: with a query, percent-encoded, or naming a directory without
        /// its slash, which gets it on every engine (WebKitGTK follows no custom-scheme redirect), so
        /// the directory's page's relative script is its own.
        @Test(arguments: Engine.built) func aPathWithAQueryOrEncodingOrNoSlashLoads(engine: Engine) async throws {
            let site = try Self.site("<!doctype html><title>t</title>")
            defer { try? FileManager.default.removeItem(at: site) }
            try FileManager.default.createDirectory(
                at: site.appendingPathComponent("docs"), withIntermediateDirectories: true)
            try Data("<!doctype html><script src=app.js></script>".utf8)
                .write(to: site.appendingPathComponent("docs/index.html"))
            try Data("window.ran = location.pathname;".utf8).write(to: site.appendingPathComponent("docs/app.js"))
            try Data("<!doctype html><title>spaced</title>".utf8).write(to: site.appendingPathComponent("a b.html"))
            let expression = "location.pathname + location.search + '|' + (window.ran ?? document.title)"

            let encoded = try headlessRender(
                engine, [site.path, "--path", "/a%20b.html?v=2", "--json", "--eval", expression])
            #expect(encoded.status == 0, "stderr: \(encoded.stderr)")
            let spaced = try JSONDecoder().decode(Report.self, from: Data(encoded.lastLine.utf8))
            #expect(spaced.eval == "\"/a%20b.html?v=2|spaced\"")

            let directory = try headlessRender(
                engine, [site.path, "--path", "/docs?x=1", "--json", "--eval", expression])
            #expect(directory.status == 0, "stderr: \(directory.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(directory.lastLine.utf8))
            #expect(report.eval == "\"/docs/?x=1|/docs/\"")
        }

        /// A URL's fragment never reaches the handlers: a script, a `fetch()` and the page itself
        /// with one load on every engine (WebKitGTK and Firefox hand it over; a browser never
        /// requests it).
        @Test(arguments: Engine.built) func fragmentsInThePagesURLsAreNotRequested(engine: Engine) async throws {
            let site = try Self.site(
                """
                <!doctype html><title>t</title><script src="a.js#frag"></script>
                <script>window.r = (async () => [window.aLoaded === true,
                    await fetch('data.txt#x').then((r) => r.status, (e) => String(e)), location.hash])();</script>
                """)
            defer { try? FileManager.default.removeItem(at: site) }
            try Data("window.aLoaded = true;".utf8).write(to: site.appendingPathComponent("a.js"))
            try Data("data".utf8).write(to: site.appendingPathComponent("data.txt"))
            let run = try headlessRender(
                engine, [site.path, "--path", "/index.html#top", "--json", "--eval", "window.r"])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
            #expect(report.eval == "[true,200,\"#top\"]")
            #expect(report.requests.allSatisfy { $0.status == 200 || $0.path == "/favicon.ico" }, "\(report.requests)")
        }

        @Test(arguments: Engine.built) func aThrowingEvalExitsWith1AndItsMessage(engine: Engine) async throws {
            let site = try Self.site("<!doctype html><title>t</title>")
            defer { try? FileManager.default.removeItem(at: site) }
            let run = try headlessRender(engine, [site.path, "--eval", "(() => { throw new Error('boom-42') })()"])
            #expect(run.status == 1)
            #expect(run.stderr.contains("--eval threw") && run.stderr.contains("boom-42"), "\(run.stderr)")
        }

        /// A page whose script never yields: after the timeout, no process of the run is left (a
        /// WebKit web process busy in it outlived the run by WebKit's 10 s watchdog, then aborted
        /// with a GLib ERROR). The run's processes are told apart by a variable in their environment.
        @Test(arguments: Engine.built) func aBusyPageLeavesNoProcessBehindAfterTheTimeout(engine: Engine) async throws {
            let site = try Self.site(
                "<!doctype html><title>t</title><script>setTimeout(() => { for (;;) {} }, 10)</script>")
            defer { try? FileManager.default.removeItem(at: site) }
            let marker = "SCHEMEKIT_TEST_RUN=\(UUID().uuidString)"
            // A temporary directory of the run's own: what it leaves there is seen.
            let temporary = site.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let run = try headlessRender(
                engine, [site.path, "--eval", "new Promise(() => {})", "--timeout", "3"],
                environment: [
                    "SCHEMEKIT_TEST_RUN": String(marker.dropFirst("SCHEMEKIT_TEST_RUN=".count)),
                    "TMPDIR": temporary.path,
                ])
            #expect(run.status == 3, "stderr: \(run.stderr)")
            // The browser's profile is removed; the WebKit media extension's directory is removed
            // by the next run (this one ends with `_exit`).
            let leftFiles = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
                .filter { !$0.hasPrefix("schemekit-webkit-media-") }
            #expect(leftFiles.isEmpty, "left in the temporary directory: \(leftFiles)")
            // The run killed them before it exited: each is gone once its parent reaped it, well
            // within WebKit's own 10 s watchdog (what a process left behind would live until).
            let gone = await eventually(timeout: .seconds(5)) { Self.processes(withEnvironment: marker).isEmpty }
            #expect(gone, "still running 5 s after the exit: \(Self.processes(withEnvironment: marker))")
        }

        /// The live processes (pid and name) whose environment holds `entry` (`NAME=value`).
        static func processes(withEnvironment entry: String) -> [String] {
            let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { Int($0) != nil } ?? []
            return pids.compactMap { pid in
                guard let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                    environ.split(separator: 0).contains(where: { $0.elementsEqual(entry.utf8) })
                else { return nil }
                let name = FileManager.default.contents(atPath: "/proc/\(pid)/comm").map {
                    String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                }
                return "\(pid) \(name ?? "?")"
            }
        }

        /// A server that accepts connections (the kernel's backlog) and never answers: the page never
        /// finishes loading.
        @Test(arguments: Engine.built) func aPageThatNeverFinishesExitsWith3WithinTheTimeout(engine: Engine)
            async throws
        {
            let site = try Self.site("<!doctype html><title>t</title>")
            defer { try? FileManager.default.removeItem(at: site) }
            let listener = try SilentListener()
            defer { listener.close() }
            let started = ContinuousClock.now
            let url = "http://127.0.0.1:\(listener.port)/"
            let run = try headlessRender(engine, [site.path, "--url", url, "--timeout", "3", "--json"], timeout: 30)
            let elapsed = ContinuousClock.now - started
            #expect(run.status == 3)
            #expect(run.stderr.contains("timed out after 3.0 s"), "\(run.stderr)")
            #expect(elapsed < .seconds(15), "exited within the timeout (plus start-up)")
            // With --json, standard output still ends with one JSON object: why the run failed.
            let failure = try JSONDecoder().decode(Failure.self, from: Data(run.lastLine.utf8))
            #expect(
                failure == Failure(engine: engine.rawValue, url: url, error: "timed out after 3.0 s", exitStatus: 3))
            #expect(run.stdout.split(separator: "\n").count == 1, "one object: \(run.stdout)")
        }

        /// A URL on a port browsers refuse (the Fetch standard's bad ports) is a failed load on every
        /// engine: WebKitGTK turns it into about:blank without saying so, which must not report the
        /// page as loaded (a blank screenshot with exit 0).
        @Test(arguments: Engine.built) func aURLOnABlockedPortIsAFailedLoad(engine: Engine) async throws {
            let site = try Self.site("<!doctype html><title>t</title>")
            defer { try? FileManager.default.removeItem(at: site) }
            for port in [1, 6000] {
                let run = try headlessRender(engine, [site.path, "--url", "http://127.0.0.1:\(port)/"], timeout: 60)
                #expect(run.status == 1, "port \(port): \(run.stdout) \(run.stderr)")
                #expect(run.stderr.contains("the page failed to load"), "\(run.stderr)")
                #expect(!run.stdout.contains("loaded http"), "\(run.stdout)")
            }
            // With --json the failure is one JSON object on standard output, as a report would be.
            let url = "http://127.0.0.1:1/"
            let run = try headlessRender(engine, [site.path, "--url", url, "--json"], timeout: 60)
            #expect(run.status == 1)
            let failure = try JSONDecoder().decode(Failure.self, from: Data(run.lastLine.utf8))
            #expect(failure.engine == engine.rawValue && failure.url == url && failure.exitStatus == 1, "\(failure)")
            #expect(failure.error.hasPrefix("the page failed to load"), "\(failure)")
            #expect(run.stderr.contains(failure.error), "standard error says the same: \(run.stderr)")
        }

        /// `--eval` gives the page's own `JSON.stringify` of the value on every engine (a `BigInt` as
        /// its digits, and `undefined`, a function or a symbol as `null`): each engine's protocol
        /// serialises differently (Chromium: a `Date` as `{}`, a symbol refused; Firefox: a `Map` as
        /// its entries, a cycle cut), and one script must read the same everywhere.
        @Test(arguments: Engine.built) func evalGivesThePagesJSONOnEveryEngine(engine: Engine) async throws {
            let site = try Self.site("<!doctype html><title>t</title>")
            defer { try? FileManager.default.removeItem(at: site) }
            let cases: [(expression: String, json: String)] = [
                (
                    """
                    ({d: new Date(0), m: new Map([[1, 2]]), s: new Set([1]), f: () => 1, u: undefined,
                      sym: Symbol('x'), a: [undefined, () => 1, Symbol()], big: 10n, t: new Uint8Array([1, 2]),
                      j: {toJSON() { return 5 }}, n: NaN, inf: -Infinity, z: -0, re: /x/, e: new Error('x')})
                    """,
                    #"{"a":[null,null,null],"big":"10","d":"1970-01-01T00:00:00.000Z","e":{},"inf":null,"j":5,"#
                        + #""m":{},"n":null,"re":{},"s":{},"t":{"0":1,"1":2},"z":0}"#
                ),
                ("() => 1", "null"),
                ("Symbol('x')", "null"),
                ("10n", #""10""#),
                ("new Date(0)", #""1970-01-01T00:00:00.000Z""#),
                ("Promise.resolve(document.body)", "{}"),
                ("var x = {d: new Date(0), n: [1, 2.5]}; x", #"{"d":"1970-01-01T00:00:00.000Z","n":[1,2.5]}"#),
            ]
            for (expression, json) in cases {
                let run = try headlessRender(engine, [site.path, "--json", "--eval", expression])
                #expect(run.status == 0, "\(expression): \(run.stderr)")
                let report = try? JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
                #expect(report?.eval == json, "\(expression)")
            }
            let cycle = try headlessRender(
                engine, [site.path, "--json", "--eval", "(() => { const a = {}; a.a = a; return a })()"])
            #expect(cycle.status == 1 && cycle.stderr.contains("--eval threw"), "\(cycle.stderr)")
        }

        /// A run whose timeout passes while the browser still starts (a slow launch on a loaded
        /// machine) cancels the launch: the browser is killed and the profile SchemeKit made for it
        /// removed, with one line on standard error.
        @Test(arguments: Engine.built.filter { $0 != .webkit })
        func aTimeoutDuringTheLaunchLeavesNoProfileBehind(engine: Engine) async throws {
            let site = try Self.site("<!doctype html><title>t</title>")
            defer { try? FileManager.default.removeItem(at: site) }
            for timeout in ["0.05", "0.3"] {
                // A short path: Chromium's singleton socket in TMPDIR must fit a socket address
                // (108 bytes), or Chromium does not start at all.
                let temporary = URL(fileURLWithPath: "/tmp/hr-\(UUID().uuidString.prefix(8))")
                try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: temporary) }
                let run = try headlessRender(
                    engine, [site.path, "--timeout", timeout], environment: ["TMPDIR": temporary.path])
                #expect(run.status == 3, "--timeout \(timeout): \(run.stderr)")
                #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
                // The browser's own temporary files (a killed Chromium's socket directory) are its
                // business; SchemeKit's profile directory must be gone.
                let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
                    .filter { $0.hasPrefix("schemekit-") && !$0.hasPrefix("schemekit-webkit-media-") }
                #expect(left.isEmpty, "--timeout \(timeout) left \(left)")
            }
        }

        /// An X server resets when its last client leaves (Xvfb as `xvfb-run` starts it) and
        /// refuses connections meanwhile: a render started right after another one ended on the
        /// same server failed now and then ("GTK could not open a display"), more often on a
        /// loaded machine. A display `DISPLAY` names is waited for (3 s); with none named, the
        /// run fails at once with exit 2.
        @Test func aNamedDisplayThatComesUpLateIsWaitedForAndNoDisplayExits2() async throws {
            guard Engine.built.contains(.webkit) else { return }
            let site = try Self.site("<!doctype html><title>late</title>")
            defer { try? FileManager.default.removeItem(at: site) }
            let none = try headlessRender(.webkit, [site.path, "--no-media"], environment: ["DISPLAY": ""])
            #expect(none.status == 2, "\(none.stderr)")
            #expect(none.stderr.contains("could not open a display"), "\(none.stderr)")

            let display = try #require(
                (150..<400).first { number in
                    !["/tmp/.X\(number)-lock", "/tmp/.X11-unix/X\(number)"].contains {
                        FileManager.default.fileExists(atPath: $0)
                    }
                })
            let server = Process()
            server.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
            server.arguments = [":\(display)", "-screen", "0", "1024x768x24", "-nolisten", "tcp"]
            server.standardError = FileHandle.nullDevice
            server.standardOutput = FileHandle.nullDevice
            let late = Task {
                try await Task.sleep(for: .milliseconds(800))  // paces the test: the display comes up late
                try server.run()
            }
            defer {
                late.cancel()
                if server.isRunning {
                    // SIGKILL: a child of this process may start with SIGTERM blocked.
                    kill(server.processIdentifier, SIGKILL)
                    server.waitUntilExit()
                }
            }
            let run = try headlessRender(
                .webkit, [site.path, "--no-media", "--eval", "document.title"], environment: ["DISPLAY": ":\(display)"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("late"), "\(run.stdout)")
        }

        /// Chromium exits at once, printing nothing, when `TMPDIR` is too long for its singleton
        /// socket (a Unix socket path holds 107 bytes): the error says so, and how long it may be.
        @Test func aTMPDIRTooLongForChromiumIsNamedInTheError() async throws {
            guard Engine.built.contains(.chromium) else { return }
            let site = try Self.site("<!doctype html><title>t</title>")
            defer { try? FileManager.default.removeItem(at: site) }
            let temporary = URL(fileURLWithPath: "/tmp/hr-\(UUID().uuidString)\(String(repeating: "x", count: 40))")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: temporary) }
            let run = try headlessRender(.chromium, [site.path], environment: ["TMPDIR": temporary.path])
            #expect(run.status == 2, "the engine did not start: \(run.stderr)")
            #expect(run.stderr.contains("TMPDIR is \(temporary.path.utf8.count) bytes long"), "\(run.stderr)")
            #expect(run.stderr.contains("at most 62 bytes"), "\(run.stderr)")
        }
    }
#endif
