// Built with the package trait `Chromium`, `Firefox` or both.
#if Chromium || Firefox
    import Foundation
    import SchemeKit

    /// What `headless-render` needs of a browser engine's renderer (`ChromiumRenderer`,
    /// `FirefoxRenderer`), so that one run serves both: start it on the options' virtual origin,
    /// render the page, load it again cold and warm for `--iterations`, report each request.
    protocol HeadlessBrowserRenderer: Sendable {
        /// The engine's pooled page.
        associatedtype Page: HeadlessBrowserPage
        /// The engine's name on the command line and in the report (`chromium`).
        static var engine: String { get }
        /// The browser's name in messages (`Chromium`).
        static var browserName: String { get }
        /// Launches the browser, or attaches to `--connect`, and starts a renderer on `origin`'s host.
        static func start(_ options: HeadlessRender, registry: SchemeRegistry) async throws -> Self
        /// The page pool the renders use.
        var pool: SessionPool<Page> { get }
        /// Loads `url` and awaits `expression`, a snapshot and a PDF, as asked.
        func render(
            _ url: String, evaluate expression: String?, snapshot: Bool, pdf: PDFOptions?, timeout: Duration
        ) async throws -> RenderResult
        /// A new page, outside the pool (a cold load).
        func newPage() async throws -> Page
        /// Closes the browser at once (an abandoned run).
        func closeBrowser() async
        /// Shuts the pool down, stops the adapter and closes the browser.
        func close() async
    }

    /// A browser page as `--iterations` loads it.
    protocol HeadlessBrowserPage: PoolableSession {
        /// Loads `url`, waiting for `load` at most `timeout`.
        func navigate(to url: String, timeout: Duration) async throws
        /// Closes the page.
        func close() async throws
    }

    /// The work of one `headless-render --engine chromium|firefox` run: the directory at the
    /// virtual origin `https://<scheme>.localhost/`, mapped to `<scheme>://localhost/` in the
    /// registry, in a browser started here or attached to with `--connect`.
    struct HeadlessBrowserRun<Renderer: HeadlessBrowserRenderer> {
        let options: HeadlessRender

        /// The virtual origin's URL for `path`.
        var target: String { options.target }

        func run() async throws -> Int32 {
            let registry = try options.makeRegistry()
            let options = self.options
            // A run abandoned while the browser still starts (a slow launch under load outlasting
            // `--timeout`) cancels the start, which kills the browser and removes its profile, or
            // closes the browser that started anyway.
            let starting = Task { try await Renderer.start(options, registry: registry) }
            let startCleanup = AbortCleanup.add {
                starting.cancel()
                if let renderer = try? await starting.value { await renderer.closeBrowser() }
            }
            let renderer: Renderer
            do {
                renderer = try await starting.value
            } catch {
                AbortCleanup.remove(startCleanup)
                throw EngineUnavailable(
                    description: options.connect == nil
                        ? "\(Renderer.browserName) did not start: \(error)"
                        : "cannot attach to \(Renderer.browserName): \(error)")
            }
            // An abandoned run (`--timeout`, a signal) still closes the browser: Firefox keeps the
            // session of a client that went away (and its intercept) and refuses any other; a
            // launched browser leaves its profile directory behind, an attached one the pages
            // this run opened.
            let cleanup = AbortCleanup.add { await renderer.closeBrowser() }
            AbortCleanup.remove(startCleanup)
            defer { AbortCleanup.remove(cleanup) }
            do {
                let code = try await render(with: renderer)
                await renderer.close()
                return code
            } catch {
                await renderer.close()
                throw error
            }
        }

        private func render(with renderer: Renderer) async throws -> Int32 {
            var status: Int32 = 0
            let result: RenderResult
            do {
                result = try await renderer.render(
                    target, evaluate: options.eval, snapshot: options.screenshot != nil,
                    pdf: options.pdf.map { _ in options.pdfOptions },
                    timeout: .seconds(options.timeout))
            } catch {
                throw RenderError("the page failed to load: \(error)")
            }
            var report = RenderReport(
                engine: Renderer.engine, url: target, loadMs: RenderReport.milliseconds(result.duration),
                requests: result.requests.map(RenderReport.Request.init), console: result.console)
            if let error = result.evaluationError {
                FileHandle.standardError.write(Data("headless-render: --eval threw: \(error)\n".utf8))
                status = 1
            } else if options.eval != nil {
                report.eval = (result.value ?? .null).description
            }
            if let path = options.screenshot, let snapshot = result.snapshot {
                try snapshot.write(to: URL(fileURLWithPath: path))
                report.screenshot = path
            }
            if let path = options.pdf, let document = result.pdf {
                try document.write(to: URL(fileURLWithPath: path))
                report.pdf = path
            }
            if let iterations = options.iterations {
                var cold: [Double] = []
                for _ in 0..<iterations {
                    let begin = ContinuousClock.now
                    let page = try await renderer.newPage()
                    try await page.navigate(to: target, timeout: .seconds(30))
                    cold.append(RenderReport.milliseconds(ContinuousClock.now - begin))
                    try? await page.close()
                }
                var warm: [Double] = []
                let holder = Holder()
                for _ in 0..<iterations {
                    let begin = ContinuousClock.now
                    let page = try await renderer.pool.acquire(for: holder)
                    try await page.navigate(to: target, timeout: .seconds(30))
                    warm.append(RenderReport.milliseconds(ContinuousClock.now - begin))
                    try await renderer.pool.recycle(page)
                }
                report.setIterations(cold: cold, warm: warm)
            }
            HeadlessRender.printReport(try report.rendered(json: options.json))
            return status
        }

        /// The report's path for a registry URL (`/` for an empty one).
        final class Holder: Sendable {}
    }
#endif
