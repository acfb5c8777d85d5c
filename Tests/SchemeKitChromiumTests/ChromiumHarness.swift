#if Chromium
    import Foundation
    import SchemeKit
    import SchemeKitChromium
    import SchemeKitTesting

    /// A real Chromium with an adapter serving `https://app.localhost/` from a registry, for one test.
    struct ChromiumHarness {
        let browser: ChromiumBrowser
        let adapter: ChromiumSchemeAdapter
        let registry: SchemeRegistry
        let page: ChromiumPage

        static let origin = VirtualOrigin(host: "app.localhost", scheme: "app", registryHost: "localhost")

        /// The sample app's directory.
        static var sampleApp: URL {
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Samples/app")
        }

        static func start(
            wireFormat: ChromiumWireFormat = .cbor,
            configure: (inout ChromiumAdapterConfiguration) -> Void = { _ in },
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
