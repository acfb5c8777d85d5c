// Built only with the package trait `Chromium`.
#if Chromium
    import Foundation
    import SchemeKit
    import SchemeKitChromium

    /// The work of one `headless-render --engine chromium` run: the directory at the virtual origin
    /// `https://<scheme>.localhost/`, mapped to `<scheme>://localhost/` in the registry.
    struct ChromiumPageRenderer {
        let options: HeadlessRender

        /// The virtual origin's URL for `path`.
        var target: String {
            options.url
                ?? "https://\(options.scheme).localhost\(options.path.hasPrefix("/") ? "" : "/")\(options.path)"
        }

        func run() async throws -> Int32 {
            let registry = try options.makeRegistry()
            let renderer: ChromiumRenderer
            do {
                renderer = try await ChromiumRenderer.start(
                    registry: registry,
                    origins: [ChromiumVirtualOrigin(host: "\(options.scheme).localhost", scheme: options.scheme)])
            } catch {
                throw EngineUnavailable(description: "Chromium did not start: \(error)")
            }
            do {
                let code = try await render(with: renderer)
                await renderer.close()
                return code
            } catch {
                await renderer.close()
                throw error
            }
        }

        private func render(with renderer: ChromiumRenderer) async throws -> Int32 {
            var status: Int32 = 0
            let result: ChromiumRenderer.Result
            do {
                result = try await renderer.render(
                    target, evaluate: options.eval, snapshot: options.screenshot != nil,
                    timeout: .seconds(options.timeout))
            } catch {
                throw RenderError("the page failed to load: \(error)")
            }
            var report = RenderReport(
                engine: "chromium", url: target, loadMs: RenderReport.milliseconds(result.duration),
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

        static func request(_ record: ChromiumRequestRecord) -> RenderReport.Request {
            let path = URL(string: record.registryURL)?.path(percentEncoded: true) ?? record.registryURL
            let handler: String
            switch record.outcome {
            case .fulfilled: handler = record.handler ?? "unknown"
            case .continued: handler = "continued"
            case .failed: handler = record.handler ?? "failed"
            case .stopped(let reason): handler = "stopped (\(reason))"
            }
            return RenderReport.Request(
                path: path.isEmpty ? "/" : path, status: record.status ?? 0, bytes: record.bytes, handler: handler,
                ms: RenderReport.milliseconds(record.duration))
        }

        final class Holder: Sendable {}
    }
#endif
