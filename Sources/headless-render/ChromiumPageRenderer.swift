// Built only with the package trait `Chromium`.
#if Chromium
    import Foundation
    import SchemeKit
    import SchemeKitChromium

    /// `headless-render --engine chromium`: a Chromium started here (over the DevTools pipe) or
    /// attached to with `--connect` (its WebSocket), run by ``HeadlessBrowserRun``.
    typealias ChromiumPageRenderer = HeadlessBrowserRun<ChromiumRenderer>

    /// What ``HeadlessBrowserRun`` needs of ``ChromiumRenderer``.
    extension ChromiumRenderer: HeadlessBrowserRenderer {
        static var engine: String { "chromium" }
        static var browserName: String { "Chromium" }

        static func start(_ options: HeadlessRender, registry: SchemeRegistry) async throws -> ChromiumRenderer {
            let origins = [VirtualOrigin(host: "\(options.scheme).localhost", scheme: options.scheme)]
            guard let url = options.connect else {
                // Intercepted over the pipe, a body travels as raw CBOR bytes in one message: the limit is the body's.
                var configuration = ChromiumAdapterConfiguration(transport: options.transport.browserTransport)
                configuration.maximumCBORBodySize = options.maxMessageSize ?? HeadlessRender.launchedChromiumBodyLimit
                var launch = ChromiumLaunchOptions()
                launch.userDataDirectory = options.profile.map { URL(fileURLWithPath: $0, isDirectory: true) }
                return try await start(
                    registry: registry, origins: origins, launchOptions: launch, configuration: configuration)
            }
            let browser = try await ChromiumBrowser.connect(
                to: url, maximumMessageSize: options.maxMessageSize ?? 16 << 20,
                timeout: .seconds(min(options.timeout, 20)))
            return try await start(
                registry: registry, origins: origins, browser: browser,
                configuration: ChromiumAdapterConfiguration(transport: options.transport.browserTransport))
        }

        func newPage() async throws -> ChromiumPage { try await browser.newPage() }

        /// An abandoned run does not wait for Chromium to quit: a Chromium this run started is
        /// killed, so its profile can go at once; an attached one is closed politely (its pages).
        func closeBrowser() async {
            browser.kill()
            await browser.close()
        }
    }

    extension ChromiumPage: HeadlessBrowserPage {}

#endif
