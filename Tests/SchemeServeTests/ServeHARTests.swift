// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import SchemeKitTesting
    import Testing

    /// `schemeserve --har` and `--record-har`, the binary as a user runs it: a recorded site served
    /// offline ahead of the directory (a `.har` and Playwright's `.har.zip`), and a site recorded
    /// through `--fallback` with the URLs the browser used, then served back with the origin gone.
    @Suite(.ownThread, .serialized, .timeLimit(.minutes(3)))
    struct ServeHARTests {
        /// A HAR as a browser recorded it at `http://127.0.0.1:9/` (a page, its entries), with a body
        /// beside it in `_file` as Playwright attaches them.
        static func browserRecording(in directory: URL) throws -> (har: URL, binary: Data) {
            let binary = Data((0..<200_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
            try binary.write(to: directory.appending(path: "0123456789abcdef.bin"))
            func entry(_ path: String, _ type: String, text: String? = nil, file: String? = nil, size: Int) -> HAREntry
            {
                HAREntry(
                    pageref: "page@1", startedDateTime: "2024-05-01T12:00:00.000Z", time: 1,
                    request: HARRequest(method: "GET", url: "http://127.0.0.1:9\(path)"),
                    response: HARResponse(
                        status: 200, headers: [HARNameValue(name: "Content-Type", value: type)],
                        content: HARContent(size: size, mimeType: type, text: text, file: file)))
            }
            let archive = HARArchive(
                log: HARLog(
                    pages: [HARPage(startedDateTime: "2024-05-01T12:00:00.000Z", id: "page@1", title: "recorded")],
                    entries: [
                        entry("/index.html", "text/html", text: "<title>recorded</title>", size: 23),
                        entry("/data.json?b=2&a=1", "application/json", text: #"{"from":"har"}"#, size: 14),
                        entry(
                            "/blob.bin", "application/octet-stream", file: "0123456789abcdef.bin", size: binary.count),
                    ]))
            let har = directory.appending(path: "har.har")
            try archive.write(to: har)
            return (har, binary)
        }

        /// A directory with its own index.html (the HAR's wins) and a file the HAR lacks.
        static func localSite() throws -> URL {
            let site = try Fixtures.temporaryDirectory()
            try Fixtures.write("<title>directory</title>", "index.html", in: site)
            try Fixtures.write("only in the directory", "only-here.txt", in: site)
            return site
        }

        @Test(arguments: ["har", "har.zip"])
        func harServesARecordedSiteAheadOfTheDirectory(form: String) throws {
            let recording = try Fixtures.temporaryDirectory()
            let site = try Self.localSite()
            defer {
                try? FileManager.default.removeItem(at: recording)
                try? FileManager.default.removeItem(at: site)
            }
            var (har, binary) = try Self.browserRecording(in: recording)
            if form == "har.zip" {
                try shell("cd '\(recording.path)' && zip -q site.har.zip har.har 0123456789abcdef.bin")
                har = recording.appending(path: "site.har.zip")
            }
            // A temporary directory of its own, so the other case's unzipped HAR is not counted.
            let temporary = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: temporary) }
            let server = try ServeProcess(
                [site.path(percentEncoded: false), "--har", har.path(percentEncoded: false)],
                environment: ["TMPDIR": temporary.path(percentEncoded: false)])
            defer { server.stop() }
            #expect(try RawHTTP.request(port: server.port, "/index.html").text == "<title>recorded</title>")
            let json = try RawHTTP.request(port: server.port, "/data.json?a=1&b=2")
            #expect(json.status == 200 && json.text == #"{"from":"har"}"#)
            #expect(json.header("Content-Type") == "application/json")
            let blob = try RawHTTP.request(port: server.port, "/blob.bin")
            #expect(blob.status == 200 && blob.body == binary)
            #expect(try RawHTTP.request(port: server.port, "/only-here.txt").text == "only in the directory")
            #expect(try RawHTTP.request(port: server.port, "/data.json?a=2").status == 404)
            let unzipped = Self.unzippedHARs(in: temporary)
            #expect(unzipped.count == (form == "har.zip" ? 1 : 0), "a .har.zip is unzipped while the server runs")
            #expect(server.stop() == 0)
            #expect(Self.unzippedHARs(in: temporary).isEmpty, "and removed when it stops")
        }

        /// The temporary directories `.har.zip` files are unzipped into, in `temporary`.
        static func unzippedHARs(in temporary: URL) -> Set<String> {
            let names = try? FileManager.default.contentsOfDirectory(atPath: temporary.path(percentEncoded: false))
            return Set((names ?? []).filter { $0.hasPrefix("schemekit-har-") })
        }

        @Test func recordHarRecordsWhatTheFallbackFetchedAsTheBrowserAskedThenReplaysIt() throws {
            let origin = try Fixtures.temporaryDirectory()
            let empty = try Fixtures.temporaryDirectory()
            let output = try Fixtures.temporaryDirectory()
            defer {
                for directory in [origin, empty, output] { try? FileManager.default.removeItem(at: directory) }
            }
            try Fixtures.write("<title>origin</title>", "index.html", in: origin)
            let binary = Data((0..<204_800).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
            try binary.write(to: origin.appending(path: "blob.bin"))
            let python = try PythonHTTPServer(serving: origin)
            defer { python.stop() }
            let harFile = output.appending(path: "site.har")

            let recording = try ServeProcess([
                empty.path(percentEncoded: false), "--fallback", python.origin, "--record-har",
                harFile.path(percentEncoded: false),
            ])
            #expect(try RawHTTP.request(port: recording.port, "/index.html?v=1").text == "<title>origin</title>")
            #expect(try RawHTTP.request(port: recording.port, "/blob.bin").body == binary)
            #expect(try RawHTTP.request(port: recording.port, "/gone.txt").status == 404)
            #expect(recording.stop() == 0)

            let archive = try HARArchive(contentsOf: harFile)
            let base = "http://127.0.0.1:\(recording.port)"
            #expect(
                archive.entries.map(\.request.url) == [
                    "\(base)/index.html?v=1", "\(base)/blob.bin", "\(base)/gone.txt",
                ])
            #expect(archive.entries.map(\.response.status) == [200, 200, 404])
            #expect(try archive.entries[1].response.content.body(besides: harFile) == binary)

            // The origin gone, the recording serves the same site.
            python.stop()
            let replay = try ServeProcess([
                empty.path(percentEncoded: false), "--har", harFile.path(percentEncoded: false),
            ])
            defer { replay.stop() }
            #expect(try RawHTTP.request(port: replay.port, "/index.html?v=1").text == "<title>origin</title>")
            #expect(try RawHTTP.request(port: replay.port, "/blob.bin").body == binary)
        }

        @Test func harOptionsRefuseWhatCannotWorkInOneLine() throws {
            let site = try Self.localSite()
            defer { try? FileManager.default.removeItem(at: site) }
            let root = site.path(percentEncoded: false)
            try Fixtures.write("{\"log\":", "broken.har", in: site)
            let cases: [([String], String)] = [
                (
                    [root, "--record-har", site.appending(path: "x.har").path],
                    "--record-har records what --fallback fetches"
                ),
                ([root, "--har", "/nonexistent/site.har"], "no such file: --har /nonexistent/site.har"),
                ([root, "--har", site.appending(path: "broken.har").path], "truncated HAR"),
                (
                    [root, "--fallback", "http://127.0.0.1:9", "--record-har", "/nonexistent/dir/x.har"],
                    "invalid --record-har"
                ),
            ]
            for (arguments, message) in cases {
                let (status, stdout, stderr) = try ServeProcess.runToEnd(arguments)
                #expect(status == 64, "\(arguments): \(stderr)")
                #expect(stdout.isEmpty)
                #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
                #expect(stderr.hasPrefix("schemeserve: error: ") && stderr.contains(message), "\(stderr)")
            }
        }

        @Test func helpSaysWhatTheHAROptionsDo() throws {
            let (status, stdout, _) = try ServeProcess.runToEnd(["serve", "--help"])
            #expect(status == 0)
            let help = stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(help.contains("--har <file>") && help.contains("HAR's page origin") && help.contains(".har.zip"))
            #expect(help.contains("--record-har <file>") && help.contains("http://<bind>:<port>/"))
            #expect(help.contains("route_from_har") && help.contains("Needs --fallback"))
        }

        struct ShellFailure: Error { let command: String }

        func shell(_ command: String) throws {
            let process = Process()
            process.executableURL = URL(filePath: "/bin/sh")
            process.arguments = ["-c", command]
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw ShellFailure(command: command) }
        }
    }
#endif
