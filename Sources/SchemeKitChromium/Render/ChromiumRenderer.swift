#if Chromium
    import Foundation
    public import SchemeKit
    import SchemeKitBrowserSupport

    /// Renders pages of a registry in headless Chromium: what a command-line tool needs (load a URL,
    /// await an expression, take a PNG snapshot, report every request).
    ///
    /// ```swift
    /// let renderer = try await ChromiumRenderer.start(
    ///     registry: registry, origins: [VirtualOrigin(host: "app.localhost")])
    /// let result = try await renderer.render(
    ///     "https://app.localhost/index.html", evaluate: "window.sampleReport", snapshot: true)
    /// print(result.value, result.requests.count, result.duration)
    /// await renderer.close()
    /// ```
    ///
    /// Pages come from a pool (``ChromiumBrowser/makePagePool(configuration:)``), so repeated renders
    /// reuse a warm page.
    public final class ChromiumRenderer: Sendable {
        /// The browser.
        package let browser: ChromiumBrowser
        /// The adapter serving the registry.
        public let adapter: ChromiumSchemeAdapter
        /// The page pool.
        package let pool: SessionPool<ChromiumPage>

        private init(browser: ChromiumBrowser, adapter: ChromiumSchemeAdapter, pool: SessionPool<ChromiumPage>) {
            self.browser = browser
            self.adapter = adapter
            self.pool = pool
        }

        /// Launches Chromium, starts the adapter and pre-warms one page.
        ///
        /// - Parameters:
        ///   - registry: What answers the origins' requests.
        ///   - origins: The virtual origins.
        ///   - launchOptions: How to start Chromium. Default: CBOR, headless.
        ///   - configuration: The adapter's policies; its origins are replaced by `origins`. Default: the defaults.
        /// - Throws: `EngineError`.
        public static func start(
            registry: SchemeRegistry,
            origins: [VirtualOrigin],
            launchOptions: ChromiumLaunchOptions = ChromiumLaunchOptions(),
            configuration: ChromiumAdapterConfiguration = ChromiumAdapterConfiguration()
        ) async throws -> ChromiumRenderer {
            let browser = try await ChromiumBrowser.launch(launchOptions)
            return try await start(registry: registry, origins: origins, browser: browser, configuration: configuration)
        }

        /// Starts the adapter on a browser already launched or attached
        /// (``ChromiumBrowser/connect(to:maximumMessageSize:timeout:)``) and pre-warms one page.
        /// ``close()`` closes that browser as ``ChromiumBrowser/close()`` does (an attached Chromium
        /// keeps running).
        ///
        /// - Throws: `EngineError`; the browser is closed then.
        public static func start(
            registry: SchemeRegistry,
            origins: [VirtualOrigin],
            browser: ChromiumBrowser,
            configuration: ChromiumAdapterConfiguration = ChromiumAdapterConfiguration()
        ) async throws -> ChromiumRenderer {
            do {
                var configuration = configuration
                configuration.origins = origins
                let adapter = ChromiumSchemeAdapter(
                    registry: registry, browser: browser, configuration: configuration)
                try await adapter.start()
                let pool = browser.makePagePool(configuration: SessionPoolConfiguration(warmCount: 1, maximumCount: 2))
                await pool.start()
                return ChromiumRenderer(browser: browser, adapter: adapter, pool: pool)
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

        /// One console line from a `Runtime.consoleAPICalled` or `Runtime.exceptionThrown` event:
        /// the level (`warning` shortened to `warn`), a colon, and the arguments joined by spaces,
        /// strings as they are, primitives as JavaScript prints them, other values as JSON.
        static func consoleLine(_ event: CDPEvent) -> String? {
            if event.method == "Runtime.exceptionThrown" {
                let details = event.params["exceptionDetails"]
                let text =
                    details?["exception"]?["description"]?.stringValue ?? details?["text"]?.stringValue ?? "exception"
                return "error: \(text)"
            }
            guard let type = event.params["type"]?.stringValue else { return nil }
            let level = type == "warning" ? "warn" : type
            let arguments = event.params["args"]?.arrayValue ?? []
            let text = arguments.map { argument -> String in
                if let string = argument["value"]?.stringValue { return string }
                // Numbers and the like as JavaScript prints them (`42`, not the wire's `42.0`).
                if argument["type"]?.stringValue != "object", let text = argument["description"]?.stringValue {
                    return text
                }
                if let value = argument["value"] { return value.jsonText }
                return argument["description"]?.stringValue ?? argument["type"]?.stringValue ?? "?"
            }
            return "\(level): \(text.joined(separator: " "))"
        }

        /// Shuts the pool down, stops the adapter and closes Chromium.
        public func close() async {
            await pool.shutDown()
            await adapter.stop()
            await browser.close()
        }
    }

    /// The render both engines run (``BrowserPageRenderer``).
    extension ChromiumRenderer: BrowserPageRenderer {
        /// The adapter's records.
        package var recordFeed: SchemeRequestRecordFeed { adapter.recordFeed }

        /// The page's `Runtime.consoleAPICalled` and `Runtime.exceptionThrown` events.
        package func consoleEvents(of page: ChromiumPage) -> AsyncStream<CDPEvent> {
            page.events(methods: ["Runtime.consoleAPICalled", "Runtime.exceptionThrown"])
        }

        /// ``consoleLine(_:)``: every event on the page's session is the page's.
        package static func consoleLine(_ event: CDPEvent, on page: ChromiumPage) -> String? { consoleLine(event) }
    }

    extension ChromiumPage: RenderablePage {}
#endif
