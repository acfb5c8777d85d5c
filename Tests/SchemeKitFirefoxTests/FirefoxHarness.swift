#if Firefox
    import Foundation
    import SchemeKit
    import SchemeKitFirefox
    import SchemeKitTesting

    /// A real headless Firefox with an adapter serving `https://app.localhost/` from a registry, for one test.
    struct FirefoxHarness {
        let browser: FirefoxBrowser
        let adapter: FirefoxSchemeAdapter
        let registry: SchemeRegistry
        let page: FirefoxPage

        static let origin = VirtualOrigin(host: "app.localhost", scheme: "app", registryHost: "localhost")

        /// The sample app's directory.
        static var sampleApp: URL {
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Samples/app")
        }

        static func start(
            launchOptions: FirefoxLaunchOptions = FirefoxLaunchOptions(),
            configure: (inout FirefoxAdapterConfiguration) -> Void = { _ in },
            register: (SchemeRegistry) throws -> Void
        ) async throws -> FirefoxHarness {
            let registry = SchemeRegistry()
            try register(registry)
            let browser = try await FirefoxBrowser.launch(launchOptions)
            do {
                var configuration = FirefoxAdapterConfiguration(origins: [origin])
                configure(&configuration)
                let adapter = FirefoxSchemeAdapter(registry: registry, browser: browser, configuration: configuration)
                try await adapter.start()
                let page = try await browser.newPage()
                return FirefoxHarness(browser: browser, adapter: adapter, registry: registry, page: page)
            } catch {
                await browser.close()
                throw error
            }
        }

        /// Navigates to a page of the origin (a blank one by default), so `fetch()` runs in the secure origin.
        func openOrigin(_ path: String = "/blank.html") async throws {
            try await page.navigate(to: "https://app.localhost\(path)")
        }

        func close() async {
            await adapter.stop()
            await browser.close()
        }

        /// Polls `condition` until it holds or `timeout` passes.
        static func eventually(
            _ timeout: Duration = TestTiming.scaled(.seconds(10)), _ condition: @Sendable () -> Bool
        ) async -> Bool {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if condition() { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return condition()
        }
    }

    /// A tiny HTML page for tests that only need the origin.
    let blankPage = ClosureHandler(name: "blank") { _, writer in
        try await writer.respond(
            SchemeResponse(status: .ok, mimeType: "text/html", textEncodingName: "utf-8"),
            body: Data("<!doctype html><link rel=icon href=\"data:,\"><title>blank</title>".utf8))
        return .handled
    }

    /// What `window.sampleReport` holds once the sample app checked itself.
    struct SampleReport: Decodable, Sendable {
        struct Image: Decodable, Sendable { var ok: Bool }
        var css: Bool
        var module: Bool
        var image: Image
        var font: Bool
        var json: Bool
        var video: Bool
        var missing404: Bool

        var allPassed: Bool { css && module && image.ok && font && json && video && missing404 }
    }
#endif
