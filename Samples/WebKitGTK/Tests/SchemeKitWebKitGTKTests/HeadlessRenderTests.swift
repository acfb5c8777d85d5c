import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `headless-render`, the built binary run as a user runs it (under the test's X display): what it
/// prints for a page, its JSON report, snapshots, iterations, cache flag, and its exits on bad input.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct HeadlessRenderTests {
    struct Report: Decodable {
        struct Request: Decodable {
            var path: String
            var status: Int
            var bytes: Int
            var handler: String
            var ms: Double
        }

        var url: String
        var loadMs: Double
        var requests: [Request]
        var console: [String]
        var eval: String?
        var screenshot: String?
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

    @Test func theSampleAppRendersWithEveryRequestInTheJSONReport() async throws {
        let app = WebKitHarness.sampleApp()
        let run = try HeadlessRenderProcess.run([
            app.path, "--json", "--eval", "window.sampleReport.then((r) => r.css && r.module && r.json && r.font)",
        ])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
        #expect(report.url == "app://localhost/index.html")
        #expect(report.loadMs > 0)
        #expect(report.eval == "true", "CSS, module, JSON and font all arrived")
        let index = try #require(report.requests.first { $0.path == "/index.html" })
        let size = try FileManager.default.attributesOfItem(atPath: app.appendingPathComponent("index.html").path)[
            .size]
        #expect(index.status == 200 && index.handler == "files" && index.bytes == size as? Int)
        #expect(report.requests.contains { $0.path == "/data/does-not-exist.json" && $0.status == 404 })
        #expect(report.coldMedianMs == nil, "no iterations asked for")
    }

    @Test func theTextReportListsRequestsAndTheConsole() async throws {
        let site = try Self.site(
            "<!doctype html><title>t</title><script>console.log('hello', 42); console.warn('careful');</script>")
        defer { try? FileManager.default.removeItem(at: site) }
        let run = try HeadlessRenderProcess.run([site.path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("loaded app://localhost/index.html in ") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  200 /index.html ") && $0.contains(" B files ") }, "\(lines)")
        #expect(lines.contains("console log: hello 42"), "\(lines)")
        #expect(lines.contains("console warn: careful"), "\(lines)")
    }

    @Test func aScreenshotIsAPNGFile() async throws {
        let site = try Self.site("<!doctype html><body style='background:#0a0'><h1>snap</h1>")
        defer { try? FileManager.default.removeItem(at: site) }
        let png = site.appendingPathComponent("shot.png")
        let run = try HeadlessRenderProcess.run([site.path, "--screenshot", png.path, "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let bytes = try Data(contentsOf: png)
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "PNG signature")
        #expect(bytes.count > 100)
        let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
        #expect(report.screenshot == png.path)
    }

    @Test func iterationsReportColdAndWarmLoads() async throws {
        let site = try Self.site("<!doctype html><title>t</title><p>x")
        defer { try? FileManager.default.removeItem(at: site) }
        let run = try HeadlessRenderProcess.run([site.path, "--iterations", "2", "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
        #expect(report.coldMs?.count == 2)
        #expect(report.warmMs?.count == 2)
        #expect((report.coldMedianMs ?? 0) > 0 && (report.warmMedianMs ?? 0) > 0)
        let text = try HeadlessRenderProcess.run([site.path, "--iterations", "2"])
        #expect(text.status == 0, "stderr: \(text.stderr)")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("cold median ") && $0.contains(" ms, p90 ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("warm median ") && $0.contains(" ms, p90 ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("warm is ") && $0.hasSuffix("x faster") }, "\(lines)")
    }

    @Test(arguments: [("immutable", "max-age=31536000, immutable"), ("revalidate", "no-cache")])
    func theCacheFlagSetsCacheControl(flag: String, expected: String) async throws {
        let site = try Self.site("<!doctype html><title>t</title>")
        defer { try? FileManager.default.removeItem(at: site) }
        let run = try HeadlessRenderProcess.run([
            site.path, "--cache", flag, "--json", "--eval",
            "fetch('index.html', { cache: 'no-store' }).then((r) => r.headers.get('cache-control'))",
        ])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
        #expect(report.eval == "\"\(expected)\"")
    }

    /// `--fallback`: what the directory lacks comes from a real origin on loopback (python's
    /// `http.server`), its status passed through, and the request log names the network handler.
    @Test func theFallbackFetchesWhatTheDirectoryLacksFromTheOrigin() async throws {
        let site = try Self.site("<!doctype html><title>t</title>")
        let originDirectory = try Self.site("<!doctype html><title>origin</title>")
        defer {
            try? FileManager.default.removeItem(at: site)
            try? FileManager.default.removeItem(at: originDirectory)
        }
        try Data("from the origin".utf8).write(to: originDirectory.appendingPathComponent("remote.txt"))
        let origin = try LoopbackOrigin(serving: originDirectory)
        defer { origin.stop() }
        let run = try HeadlessRenderProcess.run([
            site.path, "--fallback", "http://127.0.0.1:\(origin.port)", "--json", "--eval",
            "Promise.all([fetch('remote.txt').then((r) => r.text()), fetch('gone.txt').then((r) => r.status)])",
        ])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(run.lastLine.utf8))
        #expect(report.eval == "[\"from the origin\",404]")
        #expect(report.requests.contains { $0.path == "/index.html" && $0.handler == "files" })
        #expect(report.requests.contains { $0.path == "/remote.txt" && $0.status == 200 && $0.handler == "network" })
        #expect(report.requests.contains { $0.path == "/gone.txt" && $0.status == 404 && $0.handler == "network" })

        // The page itself may come from the origin: without a local index.html, the origin's loads.
        try FileManager.default.removeItem(at: site.appendingPathComponent("index.html"))
        let fromOrigin = try HeadlessRenderProcess.run([
            site.path, "--fallback", "http://127.0.0.1:\(origin.port)", "--json", "--eval", "document.title",
        ])
        #expect(fromOrigin.status == 0, "stderr: \(fromOrigin.stderr)")
        let originReport = try JSONDecoder().decode(Report.self, from: Data(fromOrigin.lastLine.utf8))
        #expect(originReport.eval == "\"origin\"", "the origin's index.html, titled 'origin'")
    }

    @Test func badArgumentsExitWith64AndOneClearLine() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("headless-render-\(UUID())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let missing = try HeadlessRenderProcess.run(["/nonexistent/site"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("no such directory: /nonexistent/site"), "\(missing.stderr)")
        let noIndex = try HeadlessRenderProcess.run([empty.path])
        #expect(noIndex.status == 64)
        #expect(noIndex.stderr.contains("/index.html not found in"), "\(noIndex.stderr)")
        let zero = try HeadlessRenderProcess.run([empty.path, "--path", "/", "--iterations", "0"])
        #expect(zero.status == 64)
        #expect(zero.stderr.contains("--iterations must be at least 1"), "\(zero.stderr)")
        let ftp = try HeadlessRenderProcess.run([empty.path, "--path", "/", "--fallback", "ftp://origin.example"])
        #expect(ftp.status == 64)
        #expect(ftp.stderr.contains("--fallback must be an http or https origin"), "\(ftp.stderr)")
    }

    @Test func aThrowingEvalExitsWith1AndItsMessage() async throws {
        let site = try Self.site("<!doctype html><title>t</title>")
        defer { try? FileManager.default.removeItem(at: site) }
        let run = try HeadlessRenderProcess.run([site.path, "--eval", "(() => { throw new Error('boom-42') })()"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("--eval threw") && run.stderr.contains("boom-42"), "\(run.stderr)")
    }

    /// A server that accepts connections (the kernel's backlog) and never answers: the page never
    /// finishes loading.
    @Test func aPageThatNeverFinishesExitsWith3WithinTheTimeout() async throws {
        let site = try Self.site("<!doctype html><title>t</title>")
        defer { try? FileManager.default.removeItem(at: site) }
        let listener = try SilentListener()
        defer { listener.close() }
        let started = ContinuousClock.now
        let run = try HeadlessRenderProcess.run(
            [site.path, "--url", "http://127.0.0.1:\(listener.port)/", "--timeout", "3"], timeout: 30)
        let elapsed = ContinuousClock.now - started
        #expect(run.status == 3)
        #expect(run.stderr.contains("timed out after 3.0 s"), "\(run.stderr)")
        #expect(elapsed < .seconds(15), "exited within the timeout (plus start-up)")
    }
}

/// `headless-render` run to its end, its output captured in files (no pipe to fill).
struct HeadlessRenderProcess {
    var status: Int32
    var stdout: String
    var stderr: String

    /// The last line of standard output (where `--json` prints its object).
    var lastLine: String { stdout.split(separator: "\n").last.map(String.init) ?? "" }

    /// The binary next to the test bundle (`.build/<config>/headless-render`).
    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("headless-render")
    }

    static func run(_ arguments: [String], timeout: Double = 60) throws -> HeadlessRenderProcess {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("headless-render-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("stdout")
        let err = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        let deadline = Date.now.addingTimeInterval(timeout)
        while process.isRunning && Date.now < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            Issue.record("headless-render did not exit within \(timeout) s")
        }
        return HeadlessRenderProcess(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}

/// A loopback TCP socket that listens and never accepts.
struct SilentListener {
    let descriptor: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard fd >= 0, bound == 0, listen(fd, 16) == 0 else {
            if fd >= 0 { _ = Glibc.close(fd) }
            throw POSIXError(.EADDRNOTAVAIL)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}

/// `python3 -m http.server` on 127.0.0.1, serving a directory: the origin behind `--fallback`.
final class LoopbackOrigin {
    let process = Process()
    let port: Int

    /// Starts the server on a free port and waits (at most 15 s) until it accepts connections.
    init(serving directory: URL) throws {
        let probe = try SilentListener()
        port = probe.port
        probe.close()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", directory.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date.now.addingTimeInterval(15)
        while Date.now < deadline {
            if Self.accepts(port) { return }
            usleep(50_000)
        }
        stop()
        throw POSIXError(.ECONNREFUSED)
    }

    /// Whether a TCP connection to 127.0.0.1:`port` succeeds.
    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { _ = Glibc.close(fd) }
        var address = loopbackAddress(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Kills the server and waits for it.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// `127.0.0.1:port` as a socket address (port 0: any free port).
func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return address
}
