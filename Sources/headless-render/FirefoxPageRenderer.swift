// Built only with the package trait `Firefox`.
#if Firefox
    import Foundation
    import SchemeKit
    import SchemeKitFirefox

    /// `headless-render --engine firefox`: a Firefox started here or attached to with `--connect`
    /// (its WebDriver BiDi WebSocket), run by ``HeadlessBrowserRun``.
    typealias FirefoxPageRenderer = HeadlessBrowserRun<FirefoxRenderer>

    /// What ``HeadlessBrowserRun`` needs of ``FirefoxRenderer``.
    extension FirefoxRenderer: HeadlessBrowserRenderer {
        static var engine: String { "firefox" }
        static var browserName: String { "Firefox" }

        static func start(_ options: HeadlessRender, registry: SchemeRegistry) async throws -> FirefoxRenderer {
            let origins = [VirtualOrigin(host: "\(options.scheme).localhost", scheme: options.scheme)]
            let browser: FirefoxBrowser
            if let url = options.connect {
                browser = try await FirefoxBrowser.connect(
                    to: url, maximumMessageSize: options.maxMessageSize ?? 16 << 20,
                    timeout: .seconds(min(options.timeout, 20)))
            } else {
                var launch = FirefoxLaunchOptions()
                if let size = options.maxMessageSize { launch.maximumMessageSize = size }
                launch.profileDirectory = options.profile.map { URL(fileURLWithPath: $0, isDirectory: true) }
                browser = try await FirefoxBrowser.launch(launch)
            }
            return try await start(
                registry: registry, origins: origins, browser: browser,
                configuration: FirefoxAdapterConfiguration(transport: options.transport.browserTransport))
        }

        func newPage() async throws -> FirefoxPage { try await browser.newPage() }

        /// An abandoned run does not wait for a busy page to let Firefox quit: a Firefox this run
        /// started is killed (its watchdog ends its process group), so its profile can go at once;
        /// an attached one is closed politely (its pages, the session).
        func closeBrowser() async {
            browser.kill()
            await browser.close()
        }
    }

    extension FirefoxPage: HeadlessBrowserPage {}

#endif
