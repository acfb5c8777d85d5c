#if Chromium
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import SchemeKitChromium
    import SchemeKitTesting

    /// A real Chromium with an adapter serving `https://app.localhost/` from a registry, for one test.
    ///
    /// Made and closed by ``with(wireFormat:configure:register:_:)`` only, so the browser is closed
    /// before the test returns, whatever the test does.
    struct ChromiumHarness {
        let browser: ChromiumBrowser
        let adapter: ChromiumSchemeAdapter
        let registry: SchemeRegistry
        let page: ChromiumPage

        static let origin = VirtualOrigin(host: "app.localhost", scheme: "app", registryHost: "localhost")

        /// The sample app's directory.
        static var sampleApp: URL { SampleApp.directory }

        /// Runs `body` with a new Chromium, an adapter serving `register`'s registry at ``origin``
        /// and a page, then stops the adapter and closes the browser, also when `body` throws: the
        /// browser never outlives the test.
        static func with<T: Sendable>(
            wireFormat: ChromiumWireFormat = .cbor,
            configure: (inout ChromiumAdapterConfiguration) -> Void = { _ in },
            register: (SchemeRegistry) throws -> Void,
            _ body: (ChromiumHarness) async throws -> T
        ) async throws -> T {
            let harness = try await start(wireFormat: wireFormat, configure: configure, register: register)
            do {
                let result = try await body(harness)
                await harness.close()
                return result
            } catch {
                await harness.close()
                throw error
            }
        }

        /// Runs `body` with a new Chromium launched with `options`, then closes it, also when `body`
        /// throws.
        static func withBrowser<T: Sendable>(
            _ options: ChromiumLaunchOptions = ChromiumLaunchOptions(), _ body: (ChromiumBrowser) async throws -> T
        ) async throws -> T {
            try await closing(try await ChromiumBrowser.launch(options), body)
        }

        /// Runs `body` with `browser` (launched or attached), then closes it, also when `body` throws.
        static func closing<T: Sendable>(
            _ browser: ChromiumBrowser, _ body: (ChromiumBrowser) async throws -> T
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
            wireFormat: ChromiumWireFormat,
            configure: (inout ChromiumAdapterConfiguration) -> Void,
            register: (SchemeRegistry) throws -> Void
        ) async throws -> ChromiumHarness {
            let registry = SchemeRegistry()
            try register(registry)
            let browser = try await ChromiumBrowser.launch(ChromiumLaunchOptions(wireFormat: wireFormat))
            do {
                var configuration = ChromiumAdapterConfiguration(origins: [origin])
                configure(&configuration)
                let adapter = ChromiumSchemeAdapter(
                    registry: registry, browser: browser, configuration: configuration)
                try await adapter.start()
                let page = try await browser.newPage()
                return ChromiumHarness(browser: browser, adapter: adapter, registry: registry, page: page)
            } catch {
                await browser.close()
                throw error
            }
        }

        /// Navigates to a blank page of the origin (served by `blank`), so `fetch()` runs in the secure origin.
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
    let blankPage = StaticHandlerPage.html("<!doctype html><link rel=icon href=\"data:,\"><title>blank</title>")

    enum StaticHandlerPage {
        static func html(_ text: String) -> ClosureHandler {
            ClosureHandler(name: "blank") { _, writer in
                try await writer.respond(
                    SchemeResponse(status: .ok, mimeType: "text/html", textEncodingName: "utf-8"), body: Data(text.utf8)
                )
                return .handled
            }
        }
    }
#endif
