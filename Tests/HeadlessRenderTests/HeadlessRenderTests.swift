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
    }

    /// `headless-render` on a given engine.
    func headlessRender(_ engine: Engine, _ arguments: [String], timeout: Double = 60) throws -> ToolProcess {
        try ToolProcess.run("headless-render", ["--engine", engine.rawValue] + arguments, timeout: timeout)
    }

    /// `headless-render`, the built binary run as a user runs it, on each engine it was built with
    /// (WebKitGTK under the test's X display): what it prints for a page, its JSON report, snapshots,
    /// iterations, cache flag, and its exits on bad input.
    @Suite(.serialized, .timeLimit(.minutes(3)))
    struct HeadlessRenderTests {
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

        @Test(arguments: Engine.built) func theSampleAppRendersWithEveryRequestInTheJSONReport(engine: Engine)
            async throws
        {
            let app = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Samples/app")
            let run = try headlessRender(
                engine,
                [
                    app.path, "--json", "--eval",
                    "window.sampleReport.then((r) => r.css && r.module && r.json && r.font)",
                ])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
            #expect(report.url == engine.indexURL)
            #expect(report.loadMs > 0)
            #expect(report.eval == "true", "CSS, module, JSON and font all arrived")
            let index = try #require(report.requests.first { $0.path == "/index.html" })
            let size = try FileManager.default.attributesOfItem(atPath: app.appendingPathComponent("index.html").path)[
                .size]
            #expect(index.status == 200 && index.handler == "files" && index.bytes == size as? Int)
            #expect(report.requests.contains { $0.path == "/data/does-not-exist.json" && $0.status == 404 })
            #expect(report.coldMedianMs == nil, "no iterations asked for")
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
        }

        @Test(arguments: Engine.built) func aThrowingEvalExitsWith1AndItsMessage(engine: Engine) async throws {
            let site = try Self.site("<!doctype html><title>t</title>")
            defer { try? FileManager.default.removeItem(at: site) }
            let run = try headlessRender(engine, [site.path, "--eval", "(() => { throw new Error('boom-42') })()"])
            #expect(run.status == 1)
            #expect(run.stderr.contains("--eval threw") && run.stderr.contains("boom-42"), "\(run.stderr)")
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
            let run = try headlessRender(
                engine,
                [site.path, "--url", "http://127.0.0.1:\(listener.port)/", "--timeout", "3"], timeout: 30)
            let elapsed = ContinuousClock.now - started
            #expect(run.status == 3)
            #expect(run.stderr.contains("timed out after 3.0 s"), "\(run.stderr)")
            #expect(elapsed < .seconds(15), "exited within the timeout (plus start-up)")
        }
    }
#endif
