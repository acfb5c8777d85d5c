#if Chromium
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import SchemeKitTesting
    import Testing

    @testable import SchemeKitChromium
    import SchemeKitBrowserSupport

    /// `ChromiumBrowser.connect(to:)`: a Chromium started as a separate process with
    /// `--remote-debugging-port` (as a grid node would run it), served through its DevTools
    /// WebSocket; and `printToPDF`.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct ChromiumRemoteTests {
        @Test func theSampleAppPassesEverySelfCheckThroughABrowserItDidNotStart() async throws {
            let remote = try BrowserProcess(.chromium)
            defer { remote.stop() }
            let registry = SchemeRegistry()
            try registry.register(LocalFileHandler(root: ChromiumHarness.sampleApp), for: "app")
            try await ChromiumHarness.closing(try await ChromiumBrowser.connect(to: remote.webSocketURL)) { browser in
                #expect(browser.isAttached && browser.connection.wireFormat == .json)
                let adapter = ChromiumSchemeAdapter(
                    registry: registry, browser: browser,
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
            }
            #expect(remote.isRunning, "closing an attached browser leaves Chromium running")
            // Another client finds only Chromium's own first page: the page the adapter's browser
            // opened was closed, the browser was not.
            try await ChromiumHarness.closing(try await ChromiumBrowser.connect(to: remote.webSocketURL)) { again in
                let targets = try await again.connection.send("Target.getTargets")["targetInfos"]?.arrayValue ?? []
                #expect(targets.filter { $0["type"]?.stringValue == "page" }.count == 1, "\(targets)")
            }
            #expect(remote.isRunning)
        }

        /// With a small maximum message size a body that does not fit fails its request at once,
        /// with an error naming the limit, and a media element's open-ended ranges are narrowed to fit.
        @Test func aBodyOverTheMessageLimitFailsNamingTheLimit() async throws {
            let remote = try BrowserProcess(.chromium)
            defer { remote.stop() }
            let registry = SchemeRegistry()
            try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
            try registry.register(StaticHandler(Data(count: 200_000)), for: "app", pathPrefix: "/big")
            try registry.register(LocalFileHandler(root: ChromiumHarness.sampleApp), for: "app", pathPrefix: "/media")
            let attached = try await ChromiumBrowser.connect(to: remote.webSocketURL, maximumMessageSize: 12_000)
            try await ChromiumHarness.closing(attached) { browser in
                let adapter = ChromiumSchemeAdapter(
                    registry: registry, browser: browser,
                    configuration: ChromiumAdapterConfiguration(origins: [ChromiumHarness.origin]))
                try await adapter.start()
                let page = try await browser.newPage()
                try await page.navigate(to: "https://app.localhost/blank.html")
                let records = adapter.records()
                let outcome = try await page.evaluate("fetch('/big').then(r => 'status ' + r.status, e => e.name)")
                #expect(outcome == .string("TypeError"))
                var failure: EngineError?
                for await record in records where record.url.hasSuffix("/big") {
                    if record.outcome == .failed { failure = record.error as? EngineError }
                    break
                }
                #expect(failure?.code == .bodyTooLarge)
                #expect(failure?.message.contains("12000") == true, "\(String(describing: failure))")
                // A media element's open-ended range is narrowed to what a message carries, so it plays.
                _ = try await page.evaluate(
                    "const v = document.createElement('video'); v.preload = 'auto'; v.src = '/media/clip.webm'; document.body.append(v); true"
                )
                var media: SchemeRequestRecord?
                for await record in records where record.resourceType == "Media" {
                    media = record
                    break
                }
                let carried = try #require(browser.connection.transportBodyLimit)
                #expect(carried > 7000 && carried < 9000)
                #expect(
                    media?.status == 206 && media?.bytes == carried, "narrowed to what a 12,000-byte message carries")
                await adapter.stop()
            }
        }

        @Test func aPageIsPrintedToPDF() async throws {
            try await ChromiumHarness.withBrowser { browser in
                let page = try await browser.newPage()
                try await page.navigate(to: "data:text/html,<h1>Printed by Chromium</h1>")
                let pdf = try await page.printToPDF(PDFOptions(pageWidth: 21.0, pageHeight: 29.7, background: true))
                #expect(pdf.starts(with: Array("%PDF-".utf8)))
            }
        }
    }
#endif
