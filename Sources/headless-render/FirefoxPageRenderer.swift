// Built only with the package trait `Firefox`.
#if Firefox
    import Foundation
    import SchemeKit
    import SchemeKitFirefox

    /// The work of one `headless-render --engine firefox` run: the directory at the virtual origin
    /// `https://<scheme>.localhost/`, mapped to `<scheme>://localhost/` in the registry, in a Firefox
    /// started here or attached to with `--connect` (its WebDriver BiDi WebSocket).
    struct FirefoxPageRenderer {
        let options: HeadlessRender

        /// The virtual origin's URL for `path`.
        var target: String {
            options.url
                ?? "https://\(options.scheme).localhost\(options.path.hasPrefix("/") ? "" : "/")\(options.path)"
        }

        func run() async throws -> Int32 {
            let registry = try options.makeRegistry()
            let renderer: FirefoxRenderer
            let origins = [FirefoxVirtualOrigin(host: "\(options.scheme).localhost", scheme: options.scheme)]
            do {
                let browser: FirefoxBrowser
                if let url = options.connect {
                    browser = try await FirefoxBrowser.connect(
                        to: url, maximumMessageSize: options.maxMessageSize ?? 16 << 20,
                        timeout: .seconds(min(options.timeout, 20)))
                } else {
                    var launch = FirefoxLaunchOptions()
                    if let size = options.maxMessageSize { launch.maximumMessageSize = size }
                    browser = try await FirefoxBrowser.launch(launch)
                }
                renderer = try await FirefoxRenderer.start(registry: registry, origins: origins, browser: browser)
            } catch {
                throw EngineUnavailable(
                    description: options.connect == nil
                        ? "Firefox did not start: \(error)" : "cannot attach to Firefox: \(error)")
            }
            // Given up early (--timeout, a signal), the session must still end: Firefox keeps the
            // session of a client that went away (and its intercept), and refuses any other.
            let cleanup = AbortCleanup.add { await renderer.browser.close() }
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

        private func render(with renderer: FirefoxRenderer) async throws -> Int32 {
            var status: Int32 = 0
            let result: FirefoxRenderer.Result
            do {
                result = try await renderer.render(
                    target, evaluate: options.eval, snapshot: options.screenshot != nil,
                    pdf: options.pdf.map { _ in
                        FirefoxPDFOptions(
                            pageWidth: options.pdfPageSize.width, pageHeight: options.pdfPageSize.height,
                            background: options.pdfBackground)
                    },
                    timeout: .seconds(options.timeout))
            } catch {
                throw RenderError("the page failed to load: \(error)")
            }
            var report = RenderReport(
                engine: "firefox", url: target, loadMs: RenderReport.milliseconds(result.duration),
                requests: result.requests.map(Self.request), console: result.console)
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
                    let page = try await renderer.browser.newPage()
                    try await page.navigate(to: target)
                    cold.append(RenderReport.milliseconds(ContinuousClock.now - begin))
                    try? await page.close()
                }
                var warm: [Double] = []
                let holder = Holder()
                for _ in 0..<iterations {
                    let begin = ContinuousClock.now
                    let page = try await renderer.pool.acquire(for: holder)
                    try await page.navigate(to: target)
                    warm.append(RenderReport.milliseconds(ContinuousClock.now - begin))
                    try await renderer.pool.recycle(page)
                }
                report.setIterations(cold: cold, warm: warm)
            }
            print(try report.rendered(json: options.json))
            return status
        }

        static func request(_ record: FirefoxRequestRecord) -> RenderReport.Request {
            let path = URL(string: record.registryURL)?.path(percentEncoded: true) ?? record.registryURL
            let handler: String
            var failure: String?
            switch record.outcome {
            case .provided: handler = record.handler ?? "unknown"
            case .continued: handler = "continued"
            case .failed(let error):
                handler = record.handler ?? "failed"
                failure = error.message
            case .stopped(let reason): handler = "stopped (\(reason))"
            }
            return RenderReport.Request(
                path: path.isEmpty ? "/" : path, status: record.status ?? 0, bytes: record.bytes, handler: handler,
                ms: RenderReport.milliseconds(record.duration), error: failure)
        }

        final class Holder: Sendable {}
    }
#endif
