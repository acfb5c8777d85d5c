#if Chromium
    import Foundation
    import SchemeKit
    import SchemeKitTesting
    import Testing

    @testable import SchemeKitChromium

    /// `ChromiumBrowser.connect(to:)`: a Chromium started as a separate process with
    /// `--remote-debugging-port` (as a grid node would run it), served through its DevTools
    /// WebSocket; and `printToPDF`.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct ChromiumRemoteTests {
        @Test func theSampleAppPassesEverySelfCheckThroughABrowserItDidNotStart() async throws {
            let remote = try RemoteChromium.start()
            defer { remote.stop() }
            let registry = SchemeRegistry()
            try registry.register(LocalFileHandler(root: ChromiumHarness.sampleApp), for: "app")
            let browser = try await ChromiumBrowser.connect(to: remote.browserURL)
            #expect(browser.isAttached && browser.connection.wireFormat == .json)
            let adapter = ChromiumSchemeAdapter(
                registry: registry, connection: browser.connection,
                configuration: ChromiumAdapterConfiguration(origins: [ChromiumHarness.origin]))
            try await adapter.start()
            let page = try await browser.newPage()
            try await page.navigate(to: "https://app.localhost/index.html")
            let report = try await page.evaluate("window.sampleReport")
            for check in ["css", "module", "font", "json", "video", "missing404"] {
                #expect(report[check] == .bool(true), "\(check): \(report)")
            }
            #expect(try await page.evaluate("isSecureContext") == .bool(true))
            await adapter.stop()
            await browser.close()
            #expect(remote.isRunning, "closing an attached browser leaves Chromium running")
            // Another client finds only Chromium's own first page: the page the adapter's browser
            // opened was closed, the browser was not.
            let again = try await ChromiumBrowser.connect(to: remote.browserURL)
            let targets = try await again.connection.send("Target.getTargets")["targetInfos"]?.arrayValue ?? []
            #expect(targets.filter { $0["type"]?.stringValue == "page" }.count == 1, "\(targets)")
            await again.close()
            #expect(remote.isRunning)
        }

        /// With a small maximum message size a body that does not fit fails its request at once,
        /// with an error naming the limit, and open-ended ranges are narrowed to fit.
        @Test func aBodyOverTheMessageLimitFailsNamingTheLimit() async throws {
            let remote = try RemoteChromium.start()
            defer { remote.stop() }
            let registry = SchemeRegistry()
            try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
            try registry.register(StaticHandler(Data(count: 200_000)), for: "app", pathPrefix: "/big")
            try registry.register(LocalFileHandler(root: ChromiumHarness.sampleApp), for: "app", pathPrefix: "/media")
            let browser = try await ChromiumBrowser.connect(to: remote.browserURL, maximumMessageSize: 12_000)
            let adapter = ChromiumSchemeAdapter(
                registry: registry, connection: browser.connection,
                configuration: ChromiumAdapterConfiguration(origins: [ChromiumHarness.origin]))
            try await adapter.start()
            let page = try await browser.newPage()
            try await page.navigate(to: "https://app.localhost/blank.html")
            let records = adapter.records()
            let outcome = try await page.evaluate("fetch('/big').then(r => 'status ' + r.status, e => e.name)")
            #expect(outcome == .string("TypeError"))
            var failure: ChromiumError?
            for await record in records where record.url.hasSuffix("/big") {
                if case .failed(let error) = record.outcome { failure = error }
                break
            }
            #expect(failure?.code == .bodyTooLarge)
            #expect(failure?.message.contains("12000") == true, "\(String(describing: failure))")
            let ranged = try await page.evaluate(
                "fetch('/media/clip.webm', {headers: {Range: 'bytes=0-'}}).then(async r => r.status + ' ' + (await r.arrayBuffer()).byteLength)"
            )
            let carried = try #require(browser.connection.transportBodyLimit)
            #expect(carried > 7000 && carried < 9000)
            #expect(ranged == .string("206 \(carried)"), "narrowed to what a 12,000-byte message carries")
            await adapter.stop()
            await browser.close()
        }

        @Test func aPageIsPrintedToPDF() async throws {
            let browser = try await ChromiumBrowser.launch()
            defer { Task { await browser.close() } }
            let page = try await browser.newPage()
            try await page.navigate(to: "data:text/html,<h1>Printed by Chromium</h1>")
            let pdf = try await page.printToPDF(ChromiumPDFOptions(pageWidth: 21.0, pageHeight: 29.7, background: true))
            #expect(pdf.starts(with: Array("%PDF-".utf8)))
            await browser.close()
        }
    }

    /// A Chromium started as its own process with `--remote-debugging-port=0`, the way a grid node
    /// or a user starts one; the tests only attach to it.
    final class RemoteChromium: Sendable {
        let process: Process
        let profile: URL
        let browserURL: URL

        private init(process: Process, profile: URL, browserURL: URL) {
            self.process = process
            self.profile = profile
            self.browserURL = browserURL
        }

        static func start() throws -> RemoteChromium {
            let profile = FileManager.default.temporaryDirectory.appendingPathComponent("remote-chromium-\(UUID())")
            try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
            let log = profile.appendingPathComponent("stderr.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            var arguments = [
                ProcessInfo.processInfo.environment["SCHEMEKIT_CHROMIUM"] ?? "chromium", "--headless",
                "--remote-debugging-port=0", "--user-data-dir=\(profile.appendingPathComponent("p").path)",
                "--no-first-run", "--disable-gpu",
            ]
            if geteuid() == 0 { arguments.append("--no-sandbox") }
            process.arguments = arguments + ["about:blank"]
            process.standardError = try FileHandle(forWritingTo: log)
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let deadline = Date.now.addingTimeInterval(Double(TestTiming.factor) * 30)
            while Date.now < deadline {
                let text = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
                if let range = text.range(of: "DevTools listening on ") {
                    let address = text[range.upperBound...].prefix { !$0.isWhitespace }
                    return RemoteChromium(process: process, profile: profile, browserURL: URL(string: String(address))!)
                }
                usleep(50_000)
            }
            process.terminate()
            throw ChromiumError(.launchFailed, "the remote Chromium did not start")
        }

        var isRunning: Bool { process.isRunning }

        func stop() {
            if process.isRunning {
                kill(process.processIdentifier, SIGTERM)
                let deadline = Date.now.addingTimeInterval(5)
                while process.isRunning && Date.now < deadline { usleep(20_000) }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(at: profile)
        }
    }
#endif
