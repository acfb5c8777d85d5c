#if Chromium || Firefox
    package import Foundation
    package import SchemeKit

    /// A page a browser renderer drives: what `ChromiumPage` and `FirefoxPage` share.
    ///
    /// Contract: `navigate(to:timeout:)` returns after the `load` event or throws an `EngineError`;
    /// `evaluate(_:)` awaits a promise and throws an `EngineError` with code `evaluationFailed` when
    /// the expression itself threw.
    package protocol RenderablePage: PoolableSession {
        /// Loads `url` and waits for its `load` event, at most `timeout`.
        func navigate(to url: String, timeout: Duration) async throws
        /// Evaluates `expression` in the page, awaiting a promise.
        func evaluate(_ expression: String) async throws -> JavaScriptValue
        /// A PNG of the viewport.
        func screenshot() async throws -> Data
        /// The page printed to PDF.
        func printToPDF(_ options: PDFOptions) async throws -> Data
    }

    /// A browser renderer (`ChromiumRenderer`, `FirefoxRenderer`): a pool of pages, the adapter's
    /// request records and the page's console. ``renderPage(_:evaluate:snapshot:pdf:timeout:)`` is
    /// the one render both engines run.
    ///
    /// Contract: `recordFeed` publishes every request the adapter ends; `consoleEvents(of:)` yields the events `consoleLine(_:on:)` turns into lines (`nil`
    /// for an event that is not the page's console).
    package protocol BrowserPageRenderer: Sendable {
        /// The engine's page.
        associatedtype Page: RenderablePage
        /// The engine's console event.
        associatedtype ConsoleEvent: Sendable
        /// The page pool.
        var pool: SessionPool<Page> { get }
        /// The adapter's records of the requests that ended.
        var recordFeed: SchemeRequestRecordFeed { get }
        /// The console events that may concern `page`.
        func consoleEvents(of page: Page) -> AsyncStream<ConsoleEvent>
        /// One console line from `event` when it is `page`'s, or `nil`.
        static func consoleLine(_ event: ConsoleEvent, on page: Page) -> String?
    }

    extension BrowserPageRenderer {
        /// Loads `url` in a pooled page, waits for `load`, then awaits `expression`, takes a snapshot
        /// and prints a PDF, as asked; the page goes back to the pool.
        ///
        /// Throws the engine's error (navigation failure, timeout), its message extended with every
        /// request of the load that failed and why; an expression that throws is reported in
        /// `RenderResult.evaluationError`, not thrown.
        package func renderPage(
            _ url: String, evaluate expression: String?, snapshot: Bool, pdf: PDFOptions?, timeout: Duration
        ) async throws -> RenderResult {
            let holder = RenderHolder()
            let page = try await pool.acquire(for: holder)
            let collector = recordFeed.startCollecting()
            let consoleEvents = consoleEvents(of: page)
            let consoleCollector = Task {
                var lines: [String] = []
                for await event in consoleEvents {
                    if let line = Self.consoleLine(event, on: page) { lines.append(line) }
                }
                return lines
            }
            defer {
                _ = recordFeed.stopCollecting(collector)
                consoleCollector.cancel()
            }
            let started = ContinuousClock.now
            do {
                try await page.navigate(to: url, timeout: timeout)
                let duration = ContinuousClock.now - started
                var value: JavaScriptValue?
                var evaluationError: EngineError?
                if let expression {
                    do {
                        value = try await page.evaluate(expression)
                    } catch let error as EngineError where error.code == .evaluationFailed {
                        evaluationError = error
                    }
                }
                let image = snapshot ? try await page.screenshot() : nil
                var document: Data?
                if let pdf { document = try await page.printToPDF(pdf) }
                // An answer the page has seen is recorded once the browser acknowledged it: give
                // the last one a moment.
                try? await Task.sleep(for: .milliseconds(1))
                let requests = recordFeed.stopCollecting(collector)
                consoleCollector.cancel()
                let console = await consoleCollector.value
                try? await pool.recycle(page)
                return RenderResult(
                    value: value, evaluationError: evaluationError, snapshot: image, pdf: document, requests: requests,
                    console: console, duration: duration)
            } catch var error as EngineError {
                // A failed load says which of its requests failed, and why (a body over the limit).
                let failures = recordFeed.stopCollecting(collector).compactMap { record in
                    record.error.map {
                        "\(record.url) failed: \(($0 as? EngineError)?.message ?? "\($0)")"
                    }
                }
                try? await pool.recycle(page)
                guard !failures.isEmpty else { throw error }
                error.message = "\(error.message); \(failures.joined(separator: "; "))"
                throw error
            } catch {
                try? await pool.recycle(page)
                throw error
            }
        }
    }

    /// The holder a render acquires a page for (the pool keeps a weak reference to it).
    private final class RenderHolder: Sendable {}
#endif
