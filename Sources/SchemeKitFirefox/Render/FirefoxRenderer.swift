#if Firefox
    import Foundation
    public import SchemeKit
    import SchemeKitBrowserSupport

    /// Renders pages of a registry in headless Firefox: what a command-line tool needs (load a URL,
    /// await an expression, take a PNG snapshot or a PDF, report every request and the console).
    ///
    /// ```swift
    /// let renderer = try await FirefoxRenderer.start(
    ///     registry: registry, origins: [VirtualOrigin(host: "app.localhost")])
    /// let result = try await renderer.render(
    ///     "https://app.localhost/index.html", evaluate: "window.sampleReport", snapshot: true)
    /// print(result.value ?? .null, result.requests.count, result.duration)
    /// await renderer.close()
    /// ```
    ///
    /// Pages come from a pool (``FirefoxBrowser/makePagePool(configuration:)``), so repeated renders
    /// reuse a warm page.
    public final class FirefoxRenderer: Sendable {
        /// The browser.
        package let browser: FirefoxBrowser
        /// The adapter serving the registry.
        public let adapter: FirefoxSchemeAdapter
        /// The page pool.
        package let pool: SessionPool<FirefoxPage>

        private init(browser: FirefoxBrowser, adapter: FirefoxSchemeAdapter, pool: SessionPool<FirefoxPage>) {
            self.browser = browser
            self.adapter = adapter
            self.pool = pool
        }

        /// Launches Firefox, starts the adapter and pre-warms one page.
        ///
        /// - Parameters:
        ///   - registry: What answers the origins' requests.
        ///   - origins: The virtual origins.
        ///   - launchOptions: How to start Firefox. Default: headless, a fresh profile.
        ///   - configuration: The adapter's policies; its origins are replaced by `origins`. Default: the defaults.
        /// - Throws: `EngineError`.
        public static func start(
            registry: SchemeRegistry,
            origins: [VirtualOrigin],
            launchOptions: FirefoxLaunchOptions = FirefoxLaunchOptions(),
            configuration: FirefoxAdapterConfiguration = FirefoxAdapterConfiguration()
        ) async throws -> FirefoxRenderer {
            let browser = try await FirefoxBrowser.launch(launchOptions)
            return try await start(registry: registry, origins: origins, browser: browser, configuration: configuration)
        }

        /// Starts the adapter on a browser already launched or attached
        /// (``FirefoxBrowser/connect(to:maximumMessageSize:timeout:)``) and pre-warms one page.
        /// ``close()`` closes that browser as ``FirefoxBrowser/close()`` does (an attached Firefox
        /// keeps running).
        ///
        /// - Throws: `EngineError`; the browser is closed then.
        public static func start(
            registry: SchemeRegistry,
            origins: [VirtualOrigin],
            browser: FirefoxBrowser,
            configuration: FirefoxAdapterConfiguration = FirefoxAdapterConfiguration()
        ) async throws -> FirefoxRenderer {
            do {
                var configuration = configuration
                configuration.origins = origins
                let adapter = FirefoxSchemeAdapter(registry: registry, browser: browser, configuration: configuration)
                try await adapter.start()
                _ = try await browser.connection.send("session.subscribe", ["events": ["log.entryAdded"]])
                let pool = browser.makePagePool(configuration: SessionPoolConfiguration(warmCount: 1, maximumCount: 2))
                await pool.start()
                return FirefoxRenderer(browser: browser, adapter: adapter, pool: pool)
            } catch {
                await browser.close()
                throw error
            }
        }

        /// Loads `url` in a pooled page, waits for `load`, then awaits `expression`, takes a snapshot
        /// and prints a PDF, as asked.
        ///
        /// - Parameters:
        ///   - url: The page (usually on a virtual origin).
        ///   - expression: JavaScript to evaluate after `load`; a promise is awaited. Default: none.
        ///   - snapshot: Capture a PNG of the viewport. Default: `false`.
        ///   - pdf: Print the page to PDF with these options. Default: `nil`, no PDF.
        ///   - timeout: The most to wait for `load`. Default: 30 seconds.
        /// - Throws: `EngineError` (navigation failure, timeout). An expression that throws is
        ///   reported in `RenderResult.evaluationError`, not thrown.
        public func render(
            _ url: String, evaluate expression: String? = nil, snapshot: Bool = false, pdf: PDFOptions? = nil,
            timeout: Duration = .seconds(30)
        ) async throws -> RenderResult {
            try await renderPage(url, evaluate: expression, snapshot: snapshot, pdf: pdf, timeout: timeout)
        }

        /// One console line from a `log.entryAdded` event: the console method (`log`, `warn`, …) or
        /// `error` for an uncaught exception, a colon, and the entry's text.
        static func consoleLine(_ params: BiDiValue) -> String? {
            guard let text = params["text"]?.stringValue else { return nil }
            if params["type"]?.stringValue == "javascript" { return "error: \(text)" }
            let method = params["method"]?.stringValue ?? params["level"]?.stringValue ?? "log"
            return "\(method == "warning" ? "warn" : method): \(text)"
        }

        /// Shuts the pool down, stops the adapter and closes the browser.
        public func close() async {
            await pool.shutDown()
            await adapter.stop()
            await browser.close()
        }
    }

    /// The render both engines run (``BrowserPageRenderer``).
    extension FirefoxRenderer: BrowserPageRenderer {
        /// The adapter's records.
        package var recordFeed: SchemeRequestRecordFeed { adapter.recordFeed }

        /// The browser's `log.entryAdded` events (the session subscribed to them in `start`).
        package func consoleEvents(of page: FirefoxPage) -> AsyncStream<BiDiEvent> {
            browser.connection.events(methods: ["log.entryAdded"])
        }

        /// ``consoleLine(_:)`` for an entry of `page`'s browsing context; `nil` for another's.
        package static func consoleLine(_ event: BiDiEvent, on page: FirefoxPage) -> String? {
            guard event.params["source"]?["context"]?.stringValue == page.context else { return nil }
            return consoleLine(event.params)
        }
    }

    extension FirefoxPage: RenderablePage {}
#endif
