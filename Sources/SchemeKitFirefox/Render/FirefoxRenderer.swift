#if Firefox
    public import Foundation
    public import SchemeKit

    /// Renders pages of a registry in headless Firefox: what a command-line tool needs (load a URL,
    /// await an expression, take a PNG snapshot or a PDF, report every request and the console).
    ///
    /// ```swift
    /// let renderer = try await FirefoxRenderer.start(
    ///     registry: registry, origins: [FirefoxVirtualOrigin(host: "app.localhost")])
    /// let result = try await renderer.render(
    ///     "https://app.localhost/index.html", evaluate: "window.sampleReport", snapshot: true)
    /// print(result.value ?? .null, result.requests.count, result.duration)
    /// await renderer.close()
    /// ```
    ///
    /// Pages come from a pool (``FirefoxBrowser/makePagePool(configuration:)``), so repeated renders
    /// reuse a warm page.
    public final class FirefoxRenderer: Sendable {
        /// What one render produced.
        public struct Result: Sendable {
            /// The awaited value of the expression, or `nil` when none was given or it threw.
            public var value: JavaScriptValue?
            /// Why the expression failed (``FirefoxError/Code/evaluationFailed`` with the exception's
            /// text), or `nil`. The page loaded all the same: the other fields are filled.
            public var evaluationError: FirefoxError?
            /// The PNG snapshot, when asked for.
            public var snapshot: Data?
            /// The PDF, when asked for.
            public var pdf: Data?
            /// Every request the adapter handled for this render, in the order they ended.
            public var requests: [FirefoxRequestRecord]
            /// What the page logged, one line per `console` call (`log: hello 42`, `warn: careful`)
            /// or uncaught exception (`error: …`), in order.
            public var console: [String]
            /// From navigation start to the `load` event (the expression is not counted).
            public var duration: Duration
        }

        /// The browser.
        public let browser: FirefoxBrowser
        /// The adapter serving the registry.
        public let adapter: FirefoxSchemeAdapter
        /// The page pool.
        public let pool: SessionPool<FirefoxPage>

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
        /// - Throws: ``FirefoxError``.
        public static func start(
            registry: SchemeRegistry,
            origins: [FirefoxVirtualOrigin],
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
        /// - Throws: ``FirefoxError``; the browser is closed then.
        public static func start(
            registry: SchemeRegistry,
            origins: [FirefoxVirtualOrigin],
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
        /// - Throws: ``FirefoxError`` (navigation failure, timeout). An expression that throws is
        ///   reported in ``Result/evaluationError``, not thrown.
        public func render(
            _ url: String, evaluate expression: String? = nil, snapshot: Bool = false, pdf: FirefoxPDFOptions? = nil,
            timeout: Duration = .seconds(30)
        ) async throws -> Result {
            let holder = RenderHolder()
            let page = try await pool.acquire(for: holder)
            let stream = adapter.records()
            let collector = Task {
                var records: [FirefoxRequestRecord] = []
                for await record in stream { records.append(record) }
                return records
            }
            let logEvents = browser.connection.events(methods: ["log.entryAdded"])
            let context = page.context
            let consoleCollector = Task {
                var lines: [String] = []
                for await event in logEvents where event.params["source"]?["context"]?.stringValue == context {
                    if let line = Self.consoleLine(event.params) { lines.append(line) }
                }
                return lines
            }
            defer {
                collector.cancel()
                consoleCollector.cancel()
            }
            let started = ContinuousClock.now
            do {
                try await page.navigate(to: url, timeout: timeout)
                let duration = ContinuousClock.now - started
                var value: JavaScriptValue?
                var evaluationError: FirefoxError?
                if let expression {
                    do {
                        value = try await page.evaluate(expression)
                    } catch let error as FirefoxError where error.code == .evaluationFailed {
                        evaluationError = error
                    }
                }
                let image = snapshot ? try await page.screenshot() : nil
                let document = try await pdf.asyncMap { try await page.printToPDF($0) }
                try? await Task.sleep(for: .milliseconds(1))
                collector.cancel()
                consoleCollector.cancel()
                let requests = await collector.value
                let console = await consoleCollector.value
                try? await pool.recycle(page)
                return Result(
                    value: value, evaluationError: evaluationError, snapshot: image, pdf: document,
                    requests: requests, console: console, duration: duration)
            } catch let error as FirefoxError {
                // A failed load says which of its requests failed, and why (a body over the limit).
                collector.cancel()
                let failures = await collector.value.compactMap { record -> String? in
                    guard case .failed(let failure) = record.outcome else { return nil }
                    return "\(record.url) failed: \(failure.message)"
                }
                try? await pool.recycle(page)
                guard !failures.isEmpty else { throw error }
                throw FirefoxError(
                    error.code, "\(error.message); \(failures.joined(separator: "; "))",
                    protocolError: error.protocolError)
            } catch {
                try? await pool.recycle(page)
                throw error
            }
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

    /// The holder a render acquires a page for (the pool keeps a weak reference to it).
    private final class RenderHolder: Sendable {}

    extension Optional where Wrapped: Sendable {
        fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async throws -> T? {
            guard let value = self else { return nil }
            return try await transform(value)
        }
    }
#endif
