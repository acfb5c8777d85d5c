#if Firefox
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import SchemeKitFirefox
    import SchemeKitTesting

    /// A real headless Firefox with an adapter serving `https://app.localhost/` from a registry, for one test.
    ///
    /// Made and closed by ``with(launchOptions:configure:register:_:)`` only, so the browser is
    /// closed before the test returns, whatever the test does.
    struct FirefoxHarness {
        let browser: FirefoxBrowser
        let adapter: FirefoxSchemeAdapter
        let registry: SchemeRegistry
        let page: FirefoxPage

        static let origin = VirtualOrigin(host: "app.localhost", scheme: "app", registryHost: "localhost")

        /// The sample app's directory.
        static var sampleApp: URL { SampleApp.directory }

        /// Runs `body` with a new Firefox, an adapter serving `register`'s registry at ``origin``
        /// and a page, then stops the adapter and closes the browser, also when `body` throws: the
        /// browser never outlives the test.
        static func with<T: Sendable>(
            launchOptions: FirefoxLaunchOptions = FirefoxLaunchOptions(),
            configure: (inout FirefoxAdapterConfiguration) -> Void = { _ in },
            register: (SchemeRegistry) throws -> Void,
            _ body: (FirefoxHarness) async throws -> T
        ) async throws -> T {
            let harness = try await start(launchOptions: launchOptions, configure: configure, register: register)
            do {
                let result = try await body(harness)
                await harness.close()
                return result
            } catch {
                await harness.close()
                throw error
            }
        }

        /// Runs `body` with a new Firefox launched with `options`, then closes it, also when `body`
        /// throws.
        static func withBrowser<T: Sendable>(
            _ options: FirefoxLaunchOptions = FirefoxLaunchOptions(), _ body: (FirefoxBrowser) async throws -> T
        ) async throws -> T {
            try await closing(try await FirefoxBrowser.launch(options), body)
        }

        /// Runs `body` with `browser` (launched or attached), then closes it, also when `body` throws.
        static func closing<T: Sendable>(
            _ browser: FirefoxBrowser, _ body: (FirefoxBrowser) async throws -> T
        ) async throws -> T {
            do {
                let result = try await body(browser)
                await browser.close()
                return result
            } catch {
                await browser.close()
                throw error
            }
        }

        private static func start(
            launchOptions: FirefoxLaunchOptions,
            configure: (inout FirefoxAdapterConfiguration) -> Void,
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

        /// Stops the adapter and closes the browser (again: a no-op).
        func close() async {
            await adapter.stop()
            await browser.close()
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
