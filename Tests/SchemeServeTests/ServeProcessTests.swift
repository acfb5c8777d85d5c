// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import LoopbackTestSupport
    import Synchronization
    import Testing
    import SchemeKit

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The `schemeserve` binary as a user runs it: CLI contract, shutdown, streaming memory,
    /// fallback, live reload and a real browser.
    @Suite(.ownThread, .serialized, .timeLimit(.minutes(3)))
    struct ServeProcessTests {
        static var sampleApp: String {
            URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appending(path: "Samples/app").path(percentEncoded: false)
        }

        @Test func firstLineNamesTheRealPort() throws {
            let server = try ServeProcess([Self.sampleApp, "--scheme", "demo", "--app-host", "site.local"])
            defer { server.stop() }
            #expect(
                server.firstLine
                    == "Serving \(Self.sampleApp) as demo://site.local/ at http://127.0.0.1:\(server.port)/")
            #expect(server.port > 0)
            #expect((try? RawHTTP.request(port: server.port, "/data/app.json"))?.status == 200)
        }

        /// The access log, on by default: a line per request, in batches but within moments, in
        /// either format; none lost when the server stops.
        @Test(arguments: ["text", "json"])
        func eachRequestIsLoggedPromptly(format: String) throws {
            let server = try ServeProcess([Self.sampleApp, "--log-format", format], accessLog: true)
            defer { server.stop() }
            #expect(try RawHTTP.request(port: server.port, "/data/app.json").status == 200)
            #expect(try RawHTTP.request(port: server.port, "/missing.txt").status == 404)
            let expected = format == "text" ? "GET /missing.txt 404" : "\"status\":\"404\""
            let lines = server.standardError(until: { $0.contains(expected) })
            #expect(lines.contains(expected), "\(lines)")
            if format == "text" {
                let line = try #require(lines.split(separator: "\n").first { $0.contains("GET /data/app.json 200") })
                // `2026-11-26T20:02:47Z info GET /data/app.json 200 123B 0.42ms files`
                #expect(
                    line.wholeMatch(
                        of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ info GET \/data\/app\.json 200 \d+B \d+\.\d+ms \S+/)
                        != nil, "\(line)")
            } else {
                #expect(lines.contains(#""path":"\/data\/app.json""#) || lines.contains(#""path":"/data/app.json""#))
            }
            for index in 0..<50 { _ = try RawHTTP.request(port: server.port, "/data/app.json?\(index)") }
            // Repeats, answered before HTTP decoding, are logged like every other request.
            for _ in 0..<10 { _ = try RawHTTP.request(port: server.port, "/data/app.json?repeat") }
            #expect(server.stop() == 0)
            let repeats = { (text: String) in text.split(separator: "\n").count { $0.contains("app.json?repeat") } }
            let all = server.standardError(until: { repeats($0) == 10 })
            #expect((0..<50).allSatisfy { all.contains("app.json?\($0)") })
            #expect(repeats(all) == 10, "\(all)")
        }

        /// One event loop per core the process may run on: pinned to one core with `taskset`, the
        /// server runs one loop, not one per core of the machine; `--event-loops` still decides.
        @Test(
            .enabled(
                if: ProcessInfo.processInfo.activeProcessorCount >= 2
                    && FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset"),
                "needs two cores and taskset"))
        func eventLoopsFollowTheCPUAffinity() throws {
            func loops(_ server: ServeProcess) throws -> Int {
                let tasks = "/proc/\(server.process.processIdentifier)/task"
                return try FileManager.default.contentsOfDirectory(atPath: tasks).count { task in
                    let name = (try? String(contentsOfFile: "\(tasks)/\(task)/comm", encoding: .utf8)) ?? ""
                    return name.hasPrefix("NIO-ELT") || name.hasPrefix("NIO-SGLTN")
                }
            }
            let pinned = try ServeProcess([Self.sampleApp], cpus: "0")
            defer { pinned.stop() }
            #expect(try RawHTTP.request(port: pinned.port, "/data/app.json").status == 200)
            #expect(try loops(pinned) == 1)
            let named = try ServeProcess([Self.sampleApp, "--event-loops", "3"], cpus: "0")
            defer { named.stop() }
            #expect(try RawHTTP.request(port: named.port, "/data/app.json").status == 200)
            #expect(try loops(named) == 3)
        }

        @Test func serveIsTheDefaultSubcommand() throws {
            let server = try ServeProcess(["serve", Self.sampleApp])
            defer { server.stop() }
            #expect(server.firstLine.hasPrefix("Serving "))
        }

        @Test(arguments: [
            ["/definitely/not/here"], ["--no-such-flag", "."], [], ["--port", "notaport", "."],
            [".", "--log-format", "xml"],
            [".", "--cors", "*"],
        ])
        func usageErrorsExit64WithOneLine(arguments: [String]) throws {
            let (status, stdout, stderr) = try ServeProcess.runToEnd(arguments)
            #expect(status == 64)
            #expect(stdout.isEmpty)
            #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
        }

        @Test func helpDocumentsEveryFlag() throws {
            let (status, stdout, _) = try ServeProcess.runToEnd(["serve", "--help"])
            #expect(status == 0)
            for flag in [
                "--scheme", "--app-host", "--bind", "--port", "--fallback", "--spa", "--image-cache", "--cors",
                "--allowed-host",
                "--dotfiles", "--list", "--watch", "--log-format", "--header", "--forward-header", "--pass-set-cookie",
            ] {
                #expect(stdout.contains(flag), "\(flag)")
            }
        }

        @Test func busyPortFailsClearly() throws {
            let first = try ServeProcess([Self.sampleApp])
            defer { first.stop() }
            let (status, _, stderr) = try ServeProcess.runToEnd([Self.sampleApp, "--port", String(first.port)])
            #expect(status != 0)
            #expect(stderr.contains("address already in use"), "\(stderr)")
        }

        @Test func gracefulShutdownFinishesInFlightDownload() throws {
            let directory = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let size: Int64 = 64 << 20
            try Self.sparseFile(directory.appending(path: "big.bin"), size: size)
            let server = try ServeProcess([directory.path(percentEncoded: false)])
            defer { server.stop() }  // stopped on every path (the test stops it first itself)
            let fd = try RawHTTP.connect(port: server.port, timeout: 15)
            defer { close(fd) }
            try RawHTTP.sendAll(fd, Data("GET /big.bin HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var received = recv(fd, &buffer, 4096, 0)  // the download has started…
            #expect(received > 0)
            // …and stalls on back-pressure while we do not read: the server's socket waits on the
            // zero window we advertise.
            #if os(Linux)
                #expect(eventuallyBlocking { TCPSocketTable.serverIsStalled(sendingTo: fd, serverPort: server.port) })
            #endif
            kill(server.process.processIdentifier, SIGTERM)
            // The graceful shutdown has begun: the server stopped listening (new connections are
            // refused) with the download still in flight.
            #expect(eventuallyBlocking { !LoopbackOrigin.accepts(server.port) }, "the server stopped listening")
            var total = 0
            while received > 0 || (received < 0 && errno == EINTR) {
                total += max(received, 0)
                received = recv(fd, &buffer, buffer.count, 0)
            }
            let head = 200  // approximate head size; the body must be complete
            #expect(total >= Int(size) && total < Int(size) + head * 5, "received \(total) of \(size), errno \(errno)")
            #expect(server.stop() == 0)
        }

        @Test func largeFileStreamsWithFlatMemory() throws {
            let directory = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let size: Int64 = 1 << 30
            try Self.sparseFile(directory.appending(path: "huge.bin"), size: size)
            let server = try ServeProcess([directory.path(percentEncoded: false)])
            defer { server.stop() }
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            /// Downloads the whole file on a new connection; returns the bytes received.
            func download() throws -> Int {
                let fd = try RawHTTP.connect(port: server.port, timeout: 30)
                defer { close(fd) }
                try RawHTTP.sendAll(
                    fd, Data("GET /huge.bin HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
                var total = 0
                while true {
                    let count = recv(fd, &buffer, buffer.count, 0)
                    if count <= 0 { break }
                    total += count
                }
                return total
            }
            // Two 1 GiB downloads. A server that buffered the response would grow its peak RSS by ~1 GiB
            // per download; a streaming one grows it by a bounded amount (event-loop buffers, what is
            // in flight), far below the file size, and not more for the second download.
            // Measured here with six busy loops competing for the two cores: 7 MiB for the first
            // download, under 1 MiB for the second. Before the body writer waited for the event loop
            // (see `SchemeResponder.stream`), writes queued behind a lagging loop: 17-150 MiB for the
            // first, 66-271 MiB for the second.
            let start = server.peakResidentKiB ?? 0
            #expect(try download() > Int(size))
            let afterFirst = server.peakResidentKiB ?? 0
            #expect(try download() > Int(size))
            let afterSecond = server.peakResidentKiB ?? 0
            #expect(
                afterFirst - start < 64 * 1024, "first 1 GiB download grew the peak RSS by \(afterFirst - start) KiB")
            #expect(
                afterSecond - afterFirst < 16 * 1024,
                "second download grew the peak RSS by \(afterSecond - afterFirst) KiB")
        }

        @Test func fallbackReachesASecondLocalServer() throws {
            let origin = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: origin) }
            try Fixtures.write("from the origin", "remote.txt", in: origin)
            let python = try PythonHTTPServer(serving: origin)
            defer { python.stop() }

            let server = try ServeProcess([Self.sampleApp, "--fallback", python.origin])
            defer { server.stop() }
            let remote = try RawHTTP.request(port: server.port, "/remote.txt")
            #expect(remote.status == 200)
            #expect(remote.text == "from the origin")
            let local = try RawHTTP.request(port: server.port, "/data/app.json")
            #expect(local.text.contains("SchemeKit sample"))
            #expect((try? RawHTTP.request(port: server.port, "/nowhere.txt"))?.status == 404)
        }

        @Test func liveReloadNotifiesWebSocketClients() throws {
            let directory = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            try Fixtures.write("<html><body><p>v1</p></body></html>", "index.html", in: directory)
            let server = try ServeProcess([directory.path(percentEncoded: false), "--watch"])
            defer { server.stop() }

            let page = try RawHTTP.request(port: server.port, "/")
            #expect(page.text.contains("/__schemeserve/livereload"))
            #expect(page.text.range(of: "<script>")!.lowerBound < page.text.range(of: "</body>")!.lowerBound)
            #expect(Int(page.header("Content-Length") ?? "") == page.body.count)

            // The refusal is read up to the end of its head: the connection stays open after it, so
            // reading to the end would only end with the receive timeout.
            let evil = try Self.responseHead(
                port: server.port, Self.handshake(port: server.port, origin: "http://evil.example"))
            #expect(evil.hasPrefix("HTTP/1.1 404"), "refused: no upgrade, and no such page \(evil)")

            let fd = try RawHTTP.connect(port: server.port, timeout: 10)
            defer { close(fd) }
            try RawHTTP.sendAll(fd, Self.handshake(port: server.port, origin: "http://localhost:\(server.port)"))
            var buffer = [UInt8](repeating: 0, count: 4096)
            var received = Data()
            while received.firstRange(of: Data("\r\n\r\n".utf8)) == nil {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                received.append(contentsOf: buffer[..<count])
            }
            #expect(String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 101"))
            // The watcher starts beside the listener, and the client joins the notified set just
            // after its 101: a change is sent to this client once the server logs that it reloads
            // one page. Until then each try makes a new change (the wait for the log line paces the
            // tries; it is no guess at readiness).
            var version = 2
            let notified = eventuallyBlocking {
                try? Fixtures.write("<html><body><p>v\(version)</p></body></html>", "index.html", in: directory)
                version += 1
                return server.standardError(until: { $0.contains("reloading 1 page(s)") }, timeout: 1)
                    .contains("reloading 1 page(s)")
            }
            #expect(notified, "\(server.standardError(until: { _ in true }, timeout: 0))")
            var frame = Data(received[(received.firstRange(of: Data("\r\n\r\n".utf8))!.upperBound)...])
            while frame.count < 8 {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                frame.append(contentsOf: buffer[..<count])
            }
            #expect(frame.count >= 8)
            #expect(frame.first == 0x81)  // FIN + text
            #expect(String(decoding: frame.dropFirst(2).prefix(6), as: UTF8.self) == "reload")
        }

        /// A browser always offers gzip: the page it gets under `--watch` is gzipped and still has
        /// the live-reload script, with a weak validator (the bytes are not the file's), and a
        /// revalidation with it is a 304. Precompressed siblings are not served in place of it.
        @Test func liveReloadReachesABrowserThatAcceptsGzip() throws {
            let directory = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let paragraphs = String(repeating: "<p>A paragraph of the page.</p>", count: 64)
            let html = "<html><body>" + paragraphs + "</body></html>"
            try Fixtures.write(html, "index.html", in: directory)
            try Fixtures.write("stale, precompressed earlier", "index.html.gz", in: directory)
            let server = try ServeProcess([directory.path(percentEncoded: false), "--watch"])
            defer { server.stop() }

            let browser = ["Accept-Encoding": "gzip, deflate, br, zstd", "Accept": "text/html"]
            for _ in 0..<2 {  // the second time from what the server kept
                let page = try RawHTTP.request(port: server.port, "/index.html", headers: browser)
                #expect(page.status == 200)
                #expect(page.header("Content-Encoding") == "gzip")
                let text = String(decoding: try Gunzip.withGzipTool(page.body), as: UTF8.self)
                #expect(text.contains("/__schemeserve/livereload"))
                #expect(text.range(of: "<script>")!.lowerBound < text.range(of: "</body>")!.lowerBound)
                #expect(text.hasPrefix("<html><body><p>A paragraph"))
                let etag = try #require(page.header("ETag"))
                #expect(etag.hasPrefix("W/\""), "\(etag)")
                let revalidation = try RawHTTP.request(
                    port: server.port, "/index.html", headers: browser.merging(["If-None-Match": etag]) { $1 })
                #expect(revalidation.status == 304)
            }
        }

        @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")))
        func sampleAppPassesInHeadlessChromium() throws {
            let server = try ServeProcess([Self.sampleApp])
            defer { server.stop() }
            let profile = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: profile) }
            let chromium = Process()
            chromium.executableURL = URL(filePath: "/usr/bin/chromium")
            chromium.arguments = [
                "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)",
                "--virtual-time-budget=5000",
                "--dump-dom", "http://127.0.0.1:\(server.port)/",
            ]
            let out = Pipe()
            chromium.standardOutput = out
            chromium.standardError = FileHandle.nullDevice
            try chromium.run()
            // Bounded: a Chromium still running after 90 s is stopped, which ends its output.
            DispatchQueue.global().asyncAfter(deadline: .now() + 90) { [chromium] in
                if chromium.isRunning { chromium.terminate() }
            }
            let dom = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            chromium.waitUntilExit()
            #expect(dom.contains("<title>sample:ok</title>"), "\(dom.suffix(400))")
            #expect(
                dom.contains(
                    #""css":true,"module":true,"image":{"width":96,"height":96,"ok":true},"font":true,"json":true,"video":true,"missing404":true"#
                ))
        }

        /// Sends `request` on a new connection and returns the response's head, read up to its
        /// blank line (what follows, and whether the connection stays open, does not matter).
        static func responseHead(port: Int, _ request: Data) throws -> String {
            let fd = try RawHTTP.connect(port: port, timeout: 10)
            defer { close(fd) }
            try RawHTTP.sendAll(fd, request)
            var buffer = [UInt8](repeating: 0, count: 4096)
            var received = Data()
            while received.firstRange(of: Data("\r\n\r\n".utf8)) == nil {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                received.append(contentsOf: buffer[..<count])
            }
            return String(decoding: received, as: UTF8.self)
        }

        static func handshake(port: Int, origin: String) -> Data {
            Data(
                ("GET /__schemeserve/livereload HTTP/1.1\r\nHost: localhost:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: \(origin)\r\n\r\n")
                    .utf8)
        }

        static func sparseFile(_ url: URL, size: Int64) throws {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: UInt64(size))
            try handle.close()
        }
    }
#endif
