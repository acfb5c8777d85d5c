// Built with the package trait `WebKitGTK`, `Chromium` or both: each test runs on every engine built.
#if WebKitGTK || Chromium
    import Foundation
    import LoopbackTestSupport
    import Testing

    /// `headless-render --har` and `--record-har` on each engine: a site a browser recorded, rendered
    /// offline from its HAR (and from Playwright's `.har.zip`), and a site recorded through
    /// `--fallback` with the page's URLs, then rendered again from that recording with the origin
    /// gone. (In the suite's extension, so these run one at a time with the others.)
    extension HeadlessRenderTests {
        /// A page that fetches JSON with a query and a binary, and reports both.
        static let checkingPage = """
            <!doctype html><title>page</title><script>
            window.check = Promise.all([
              fetch('data.json?b=2&a=1').then((r) => r.json()),
              fetch('blob.bin').then((r) => r.arrayBuffer()),
            ]).then(([json, buffer]) => json.from + ':' + buffer.byteLength + ':'
              + new Uint8Array(buffer).reduce((sum, byte) => (sum * 31 + byte) >>> 0, 0));
            </script>
            """

        static let binary = Data((0..<204_800).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 11) })

        /// What `window.check` gives for JSON `{"from": from}` and ``binary``.
        static func expectedCheck(_ from: String) -> String {
            let sum = binary.reduce(UInt32(0)) { $0 &* 31 &+ UInt32($1) }
            return "\"\(from):\(binary.count):\(sum)\""
        }

        /// A HAR as a browser recorded the page at `http://127.0.0.1:9/`, the binary in `_file`.
        static func browserRecording(in directory: URL) throws -> URL {
            try binary.write(to: directory.appendingPathComponent("blob-body.bin"))
            func entry(_ path: String, _ type: String, _ content: [String: Any]) -> [String: Any] {
                [
                    "pageref": "page@1", "startedDateTime": "2024-05-01T12:00:00.000Z", "time": 1,
                    "request": ["method": "GET", "url": "http://127.0.0.1:9\(path)", "headers": []],
                    "response": [
                        "status": 200, "headers": [["name": "Content-Type", "value": type]],
                        "content": content.merging(["mimeType": type]) { first, _ in first },
                    ],
                ]
            }
            let har: [String: Any] = [
                "log": [
                    "version": "1.2", "creator": ["name": "test", "version": "1"],
                    "pages": [["id": "page@1", "title": "page", "startedDateTime": "2024-05-01T12:00:00.000Z"]],
                    "entries": [
                        entry("/index.html", "text/html", ["size": checkingPage.utf8.count, "text": checkingPage]),
                        entry("/data.json?a=1&b=2", "application/json", ["size": 14, "text": #"{"from":"har"}"#]),
                        entry(
                            "/blob.bin", "application/octet-stream", ["size": binary.count, "_file": "blob-body.bin"]),
                    ],
                ]
            ]
            let file = directory.appendingPathComponent("har.har")
            try JSONSerialization.data(withJSONObject: har).write(to: file)
            return file
        }

        @Test(arguments: Engine.built, ["har", "har.zip"])
        func harRendersARecordedSiteOffline(engine: Engine, form: String) async throws {
            let directory = try Self.site("<!doctype html><title>directory</title>")
            defer { try? FileManager.default.removeItem(at: directory) }
            try FileManager.default.removeItem(at: directory.appendingPathComponent("index.html"))
            var har = try Self.browserRecording(in: directory)
            if form == "har.zip" {
                try Self.shell("cd '\(directory.path)' && zip -q -m site.har.zip har.har blob-body.bin")
                har = directory.appendingPathComponent("site.har.zip")
            }
            let run = try headlessRender(
                engine, [directory.path, "--har", har.path, "--json", "--eval", "window.check"])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
            #expect(report.eval == Self.expectedCheck("har"))
            for path in ["/index.html", "/data.json", "/blob.bin"] {
                #expect(
                    report.requests.contains { $0.path.hasPrefix(path) && $0.status == 200 && $0.handler == "har" },
                    "\(path): \(report.requests)")
            }
        }

        @Test(arguments: Engine.built)
        func recordHarRecordsThePagesURLsAndTheRecordingRendersWithTheOriginGone(engine: Engine) async throws {
            let empty = try Self.site("")
            let originDirectory = try Self.site(Self.checkingPage)
            defer {
                try? FileManager.default.removeItem(at: empty)
                try? FileManager.default.removeItem(at: originDirectory)
            }
            try FileManager.default.removeItem(at: empty.appendingPathComponent("index.html"))
            try Data(#"{"from":"origin"}"#.utf8).write(to: originDirectory.appendingPathComponent("data.json"))
            try Self.binary.write(to: originDirectory.appendingPathComponent("blob.bin"))
            let harFile = originDirectory.deletingLastPathComponent().appendingPathComponent("rec-\(UUID()).har")
            defer { try? FileManager.default.removeItem(at: harFile) }
            let origin = try LoopbackOrigin(serving: originDirectory)
            defer { origin.stop() }

            let recorded = try headlessRender(
                engine,
                [
                    empty.path, "--fallback", "http://127.0.0.1:\(origin.port)", "--record-har", harFile.path,
                    "--json", "--eval", "window.check",
                ])
            #expect(recorded.status == 0, "stderr: \(recorded.stderr)")
            let report = try JSONDecoder().decode(Report.self, from: Data(recorded.lastLine.utf8))
            #expect(report.eval == Self.expectedCheck("origin"))

            struct HAR: Decodable {
                struct Log: Decodable { var entries: [Entry] }
                struct Entry: Decodable {
                    struct Request: Decodable { var url: String }
                    struct Response: Decodable { var status: Int }
                    var request: Request
                    var response: Response
                }
                var log: Log
            }
            // The URLs the page used, which Playwright's `route_from_har` replays.
            let page = engine == .webkit ? "app://localhost" : "https://app.localhost"
            let entries = try JSONDecoder().decode(HAR.self, from: Data(contentsOf: harFile)).log.entries
            for path in ["/index.html", "/data.json?b=2&a=1", "/blob.bin"] {
                #expect(
                    entries.contains { $0.request.url == page + path && $0.response.status == 200 },
                    "\(page + path): \(entries.map(\.request.url))")
            }

            origin.stop()
            let replayed = try headlessRender(
                engine, [empty.path, "--har", harFile.path, "--json", "--eval", "window.check"])
            #expect(replayed.status == 0, "stderr: \(replayed.stderr)")
            let offline = try JSONDecoder().decode(Report.self, from: Data(replayed.lastLine.utf8))
            #expect(offline.eval == Self.expectedCheck("origin"))
        }

        @Test(arguments: Engine.built) func harOptionsRefuseWhatCannotWorkWith64(engine: Engine) async throws {
            let site = try Self.site("<!doctype html><title>t</title>")
            defer { try? FileManager.default.removeItem(at: site) }
            let broken = site.appendingPathComponent("broken.har")
            try Data("{\"log\":".utf8).write(to: broken)
            let cases: [([String], String)] = [
                ([site.path, "--record-har", site.appendingPathComponent("x.har").path], "give --fallback"),
                ([site.path, "--har", "/nonexistent/site.har"], "no such file: --har /nonexistent/site.har"),
                ([site.path, "--har", broken.path], "invalid --har"),
            ]
            for (arguments, message) in cases {
                let run = try headlessRender(engine, arguments)
                #expect(run.status == 64, "\(arguments): \(run.stderr)")
                #expect(run.stderr.contains(message), "\(run.stderr)")
            }
            let help = try ToolProcess.run("headless-render", ["--help"])
            let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(text.contains("--har <file>") && text.contains("--record-har <file>"))
            #expect(text.contains("https://<scheme>.localhost/") && text.contains("route_from_har"))
        }

        struct ShellFailure: Error { let command: String }

        static func shell(_ command: String) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw ShellFailure(command: command) }
        }
    }
#endif
