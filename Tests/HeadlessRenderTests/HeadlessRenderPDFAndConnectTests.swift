// Built with the package trait `WebKitGTK`, `Chromium`, `Firefox` or several: each test runs on every
// engine built (the `--connect` ones on the browsers).
#if WebKitGTK || Chromium || Firefox
    import Foundation
    import LoopbackTestSupport
    import Testing

    /// `headless-render`'s whole-page outputs and remote browsers, run as a user runs it: every
    /// self-check of the sample app (video included), `--pdf` with its page size and background,
    /// and `--connect` to a browser started as a separate process.
    @Suite(.serialized, .timeLimit(.minutes(5)))
    struct HeadlessRenderPDFAndConnectTests {
        typealias Report = HeadlessRenderTests.Report

        static let sampleApp = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Samples/app")

        /// The README's command: every self-check of the sample app passes, the video's too.
        @Test(arguments: Engine.built) func theSampleAppPassesEverySelfCheck(engine: Engine) async throws {
            let run = try headlessRender(
                engine, [Self.sampleApp.path, "--json", "--eval", "window.sampleReport.then(r => JSON.stringify(r))"])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
            let text = try JSONDecoder().decode(String.self, from: Data((report.eval ?? "\"\"").utf8))
            struct Checks: Decodable {
                struct Image: Decodable { var ok: Bool }
                var css, module, font, json, video, missing404: Bool
                var image: Image
            }
            let checks = try JSONDecoder().decode(Checks.self, from: Data(text.utf8))
            #expect(checks.css && checks.module && checks.font && checks.json && checks.missing404, "\(text)")
            #expect(checks.image.ok, "\(text)")
            #expect(checks.video, "the video's metadata loaded: \(text)")
            #expect(report.requests.contains { $0.path == "/media/clip.webm" && [200, 206].contains($0.status) })
        }

        /// `--pdf`: a PDF whose text is the page's (`pdftotext`), on the paper asked for (`pdfinfo`).
        @Test(arguments: Engine.built) func aPDFOfTheSampleAppHoldsItsText(engine: Engine) async throws {
            let directory = try HeadlessRenderTests.site("<!doctype html>")
            defer { try? FileManager.default.removeItem(at: directory) }
            let pdf = directory.appendingPathComponent("sample.pdf")
            try Data("an older file".utf8).write(to: pdf)
            if engine == .webkit {
                // A print that fails (a paper too small for any content) leaves what was there.
                let failed = try headlessRender(
                    engine, [Self.sampleApp.path, "--pdf", pdf.path, "--pdf-page-size", "5x5mm"])
                #expect(failed.status == 1, "stderr: \(failed.stderr)")
                #expect(try Data(contentsOf: pdf) == Data("an older file".utf8))
            }
            let run = try headlessRender(
                engine,
                [
                    Self.sampleApp.path, "--eval", "window.sampleReport", "--pdf", pdf.path, "--pdf-page-size", "a4",
                    "--json",
                ])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
            #expect(report.pdf == pdf.path)
            let bytes = try Data(contentsOf: pdf)
            #expect(bytes.starts(with: Array("%PDF-".utf8)))
            let text = try Self.tool("pdftotext", [pdf.path, "-"])
            #expect(text.contains("SchemeKit sample"), "\(text)")
            #expect(text.contains("Self-check") && text.contains("Stylesheet applied"), "\(text)")
            let info = try Self.tool("pdfinfo", [pdf.path])
            #expect(info.contains("(A4)"), "\(info)")
            // Replaced whole; nothing of the print left beside it.
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            #expect(names == ["index.html", "sample.pdf"])
        }

        /// `--pdf-background` prints the page's background colour; without it the paper stays white
        /// (`pdftoppm` renders the first page; the pixel in the middle is read from the PPM).
        @Test(arguments: Engine.built) func theBackgroundIsPrintedOnlyWhenAsked(engine: Engine) async throws {
            let site = try HeadlessRenderTests.site(
                "<!doctype html><style>html, body { background: #00a000; margin: 0; height: 100%; }</style><p>green page</p>"
            )
            defer { try? FileManager.default.removeItem(at: site) }
            for background in [false, true] {
                let pdf = site.appendingPathComponent("page-\(background).pdf")
                let run = try headlessRender(
                    engine,
                    [site.path, "--pdf", pdf.path, "--pdf-page-size", "100x100mm"]
                        + (background ? ["--pdf-background"] : []))
                #expect(run.status == 0, "stderr: \(run.stderr)")
                #expect(try Self.tool("pdftotext", [pdf.path, "-"]).contains("green page"))
                let size = try Self.pageSize(of: pdf)
                #expect(abs(size.width - 283.46) < 2 && abs(size.height - 283.46) < 2, "100 mm square: \(size)")
                let (red, green, blue) = try Self.middlePixel(of: pdf)
                if background {
                    #expect(green > 120 && red < 60 && blue < 60, "green: \(red) \(green) \(blue)")
                } else {
                    #expect(red > 200 && green > 200 && blue > 200, "white: \(red) \(green) \(blue)")
                }
            }
        }

        @Test(arguments: Engine.built) func badPDFAndConnectOptionsExitWith64(engine: Engine) async throws {
            let site = try HeadlessRenderTests.site("<!doctype html>")
            defer { try? FileManager.default.removeItem(at: site) }
            let paper = try headlessRender(engine, [site.path, "--pdf", "/tmp/x.pdf", "--pdf-page-size", "huge"])
            #expect(paper.status == 64 && paper.stderr.contains("--pdf-page-size"), "\(paper.stderr)")
            let scheme = try headlessRender(engine, [site.path, "--connect", "http://127.0.0.1:9222/"])
            #expect(scheme.status == 64 && scheme.stderr.contains("--connect must be a ws:// URL"), "\(scheme.stderr)")
            let size = try headlessRender(engine, [site.path, "--max-message-size", "12Q"])
            #expect(size.status == 64 && size.stderr.contains("--max-message-size"), "\(size.stderr)")
            if engine == .webkit {
                let connect = try headlessRender(engine, [site.path, "--connect", "ws://127.0.0.1:9222/session"])
                #expect(connect.status == 64 && connect.stderr.contains("--engine chromium or firefox"))
            }
        }

        /// `--connect`: the directory is served through the interception of a browser started as a
        /// separate process; headless-render closes only what it opened, and the browser keeps
        /// running (a second run attaches again).
        @Test(arguments: Engine.built.filter { $0 != .webkit })
        func connectServesThroughABrowserItDidNotStart(engine: Engine) async throws {
            let browser = try BrowserProcess(engine == .firefox ? .firefox : .chromium)
            defer { browser.stop() }
            for _ in 0..<2 {
                let run = try headlessRender(
                    engine,
                    [
                        Self.sampleApp.path, "--connect", browser.webSocketURL.absoluteString, "--json", "--eval",
                        "window.sampleReport.then(r => r.css && r.module && r.json && r.font && r.video && r.missing404)",
                    ])
                #expect(run.status == 0, "stderr: \(run.stderr)")
                let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
                #expect(report.eval == "true")
                #expect(report.url == "https://app.localhost/index.html")
                #expect(browser.isRunning, "headless-render never stops a browser it attached to")
            }
            guard engine == .chromium else { return }
            // A run that times out closes the pages it opened too (an attached browser is shared:
            // a grid node, browserless), as a finished run does.
            let pages = try Self.chromiumPages(browser)
            let timedOut = try headlessRender(
                engine,
                [
                    Self.sampleApp.path, "--connect", browser.webSocketURL.absoluteString, "--eval",
                    "new Promise(() => {})",
                    "--timeout", "4",
                ])
            #expect(timedOut.status == 3, "stderr: \(timedOut.stderr)")
            #expect(try Self.chromiumPages(browser) == pages)
            #expect(browser.isRunning)
        }

        /// The URLs of an attached Chromium's pages, from its `/json/list`, sorted.
        static func chromiumPages(_ browser: BrowserProcess) throws -> [String] {
            var components = URLComponents(url: browser.webSocketURL, resolvingAgainstBaseURL: false)!
            components.scheme = "http"
            components.path = "/json/list"
            let list = try ToolProcess.run(
                "python3",
                [
                    "-c",
                    "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())",
                    components.url!.absoluteString,
                ], executable: URL(fileURLWithPath: "/usr/bin/python3"))
            let data = Data(list.stdout.utf8)
            let targets = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
            return targets.filter { $0["type"] as? String == "page" }.compactMap { $0["url"] as? String }.sorted()
        }

        /// A body that does not fit the message limit fails with an error naming the limit: in the
        /// report for a subresource, on standard error (exit 1) for the page itself. Never a hang.
        @Test(arguments: Engine.built.filter { $0 != .webkit })
        func aBodyOverTheMessageLimitFailsNamingIt(engine: Engine) async throws {
            let site = try HeadlessRenderTests.site("<!doctype html><title>t</title>")
            defer { try? FileManager.default.removeItem(at: site) }
            try Data(count: 100_000).write(to: site.appendingPathComponent("big.bin"))
            let browser = try BrowserProcess(engine == .firefox ? .firefox : .chromium)
            defer { browser.stop() }
            let connect = ["--connect", browser.webSocketURL.absoluteString, "--max-message-size", "32K"]
            let started = ContinuousClock.now
            let run = try headlessRender(
                engine,
                [site.path, "--json", "--eval", "fetch('big.bin').then(r => 'status ' + r.status, e => e.name)"]
                    + connect)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
            #expect(report.eval == "\"TypeError\"")
            let big = try #require(report.requests.first { $0.path == "/big.bin" })
            #expect(big.error?.contains("32768") == true, "\(String(describing: big.error))")
            let page = try headlessRender(engine, [site.path, "--path", "/big.bin"] + connect)
            #expect(page.status == 1)
            #expect(page.stderr.contains("32768") && page.stderr.contains("--max-message-size"), "\(page.stderr)")
            #expect(ContinuousClock.now - started < .seconds(60))
        }

        /// A browser headless-render starts serves the directory from its loopback https origin,
        /// so a body streams to the page whatever its size: 40 MiB arrives whole, also with a
        /// `--max-message-size` far smaller than the body (which bounds only protocol messages now).
        @Test(arguments: Engine.built.filter { $0 != .webkit })
        func aLaunchedBrowserStreamsLargeBodiesWhateverTheMessageLimit(engine: Engine) async throws {
            let site = try HeadlessRenderTests.site("<!doctype html><title>t</title>")
            defer { try? FileManager.default.removeItem(at: site) }
            try Data(count: 40 << 20).write(to: site.appendingPathComponent("big.bin"))
            let fetch = "fetch('big.bin').then(r => r.arrayBuffer()).then(b => b.byteLength, e => e.name)"
            for limit in [[], ["--max-message-size", "1M"]] {
                let run = try headlessRender(engine, [site.path, "--json", "--eval", fetch] + limit, timeout: 120)
                #expect(run.status == 0, "stderr: \(run.stderr)")
                let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
                #expect(report.eval == "41943040", "\(limit)")
                let big = try #require(report.requests.first { $0.path == "/big.bin" })
                #expect(big.status == 200 && big.error == nil, "\(big)")
            }
        }

        /// A Firefox that headless-render started dies with it, even when headless-render is killed
        /// with `SIGKILL` mid-load (its watchdog sees the lifeline close); a Chromium exits when its
        /// DevTools pipe closes. Every process of the run has the run's own `TMPDIR` in its command
        /// line (the profile), so none may be left.
        @Test(arguments: Engine.built.filter { $0 != .webkit })
        func aKilledRunLeavesNoBrowserBehind(engine: Engine) async throws {
            let site = try HeadlessRenderTests.site("<!doctype html><title>t</title>")
            let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("killed-\(UUID())")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            defer {
                try? FileManager.default.removeItem(at: site)
                try? FileManager.default.removeItem(at: temporary)
            }
            let listener = try SilentListener()
            defer { listener.close() }
            let process = Process()
            process.executableURL = ToolProcess.binary("headless-render")
            process.arguments = [
                "--engine", engine.rawValue, site.path, "--url", "http://127.0.0.1:\(listener.port)/", "--timeout",
                "60",
            ]
            var environment = ProcessInfo.processInfo.environment
            environment["TMPDIR"] = temporary.path
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // headless-render and its browser, both with the run's TMPDIR in their command lines.
            let started = try await eventually { try Self.processes(mentioning: temporary.path) >= 2 }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(started, "the browser started")
            var left = -1
            let gone = try await eventually {
                left = try Self.processes(mentioning: temporary.path)
                return left == 0
            }
            #expect(gone, "no browser process left: \(left) running")
        }

        /// How many processes have `text` in their command line.
        static func processes(mentioning text: String) throws -> Int {
            try tool("pgrep", ["-f", text]).split(separator: "\n").count
        }

        /// Runs a command-line tool and returns its standard output.
        static func tool(_ name: String, _ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [name] + arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }

        /// The first page's size in points, as `pdfinfo` reports it (`Page size: 283.92 x 283.92 pts`).
        static func pageSize(of pdf: URL) throws -> (width: Double, height: Double) {
            let info = try tool("pdfinfo", [pdf.path])
            let line = info.split(separator: "\n").first { $0.hasPrefix("Page size:") } ?? ""
            let numbers = line.split(separator: " ").compactMap { Double($0) }
            guard numbers.count >= 2 else { throw CocoaError(.fileReadCorruptFile) }
            return (numbers[0], numbers[1])
        }

        /// The colour in the middle of the PDF's first page, rendered with `pdftoppm` at 20 dpi.
        static func middlePixel(of pdf: URL) throws -> (Int, Int, Int) {
            let stem = pdf.deletingPathExtension().path
            _ = try tool("pdftoppm", ["-r", "20", "-singlefile", pdf.path, stem])
            let image = try Data(contentsOf: URL(fileURLWithPath: stem + ".ppm"))
            // P6 header: magic, width, height, maximum value, each followed by whitespace.
            var fields: [String] = []
            var index = 0
            var current = ""
            while fields.count < 4, index < image.count {
                let byte = image[index]
                index += 1
                if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                    if !current.isEmpty { fields.append(current) }
                    current = ""
                } else {
                    current.append(Character(UnicodeScalar(byte)))
                }
            }
            guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]) else {
                throw CocoaError(.fileReadCorruptFile)
            }
            let offset = index + ((height / 2) * width + width / 2) * 3
            return (Int(image[offset]), Int(image[offset + 1]), Int(image[offset + 2]))
        }
    }
#endif
