#if Firefox
    public import Foundation
    public import SchemeKit
    import SchemeKitBrowserSupport

    /// A page: a top-level browsing context of a ``FirefoxBrowser``, in a window of its own.
    ///
    /// ```swift
    /// let page = try await browser.newPage()
    /// try await page.navigate(to: "https://app.localhost/index.html")
    /// let title = try await page.evaluate("document.title").stringValue
    /// let pdf = try await page.printToPDF(FirefoxPDFOptions(background: true))
    /// ```
    ///
    /// A page is a `PoolableSession` (see ``FirefoxBrowser/makePagePool(configuration:)``).
    public final class FirefoxPage: Sendable {
        /// The browsing context's id.
        package let context: String
        /// The browser the page belongs to.
        package let browser: FirefoxBrowser
        package var connection: FirefoxConnection { browser.connection }

        init(context: String, browser: FirefoxBrowser) {
            self.context = context
            self.browser = browser
        }

        /// Navigates and waits for the new document's `load` event.
        ///
        /// - Parameters:
        ///   - url: Where to go.
        ///   - timeout: The most to wait for `load`. Default: 30 seconds.
        /// - Throws: ``FirefoxError`` (``FirefoxError/Code/protocolError`` when the navigation fails,
        ///   ``FirefoxError/Code/timedOut``).
        public func navigate(to url: String, timeout: Duration = .seconds(30)) async throws {
            let connection = self.connection
            let context = self.context
            _ = try await withDeadline(
                timeout, orThrow: { FirefoxError(.timedOut, "\(url) did not load within \(timeout)") }
            ) {
                try await connection.send(
                    "browsingContext.navigate", ["context": .string(context), "url": .string(url), "wait": "complete"])
            }
        }

        /// Evaluates `expression` in the page, awaiting a Promise, and returns its value.
        ///
        /// The contract is the same on every engine (see `JavaScriptValue`): what
        /// `JSON.stringify` would keep, with `undefined` as `null`; a `bigint` becomes its digits and
        /// a `Date` its ISO string.
        ///
        /// ```swift
        /// let secure = try await page.evaluate("isSecureContext").boolValue
        /// let report = try await page.evaluate("window.sampleReport").decode(as: SampleReport.self)
        /// print(try await page.evaluate("({a: [1, 2.5]})"))     // {"a":[1,2.5]}
        /// ```
        ///
        /// - Returns: The value; print it to see it as JSON text.
        /// - Throws: ``FirefoxError/Code/evaluationFailed`` with the exception's text when the
        ///   expression throws or the Promise rejects.
        public func evaluate(_ expression: String) async throws -> JavaScriptValue {
            JavaScriptValue(try await evaluateValue(expression))
        }

        /// `script.evaluate`, the result as JSON.
        package func evaluateValue(_ expression: String) async throws -> BiDiValue {
            let result = try await connection.send(
                "script.evaluate",
                [
                    "expression": .string(expression), "target": ["context": .string(context)],
                    "awaitPromise": true, "resultOwnership": "none",
                ])
            if result["type"]?.stringValue == "exception" {
                let details = result["exceptionDetails"]
                throw FirefoxError(.evaluationFailed, details?["text"]?.stringValue ?? "the expression threw")
            }
            guard let remote = result["result"] else {
                throw FirefoxError(.malformedMessage, "script.evaluate returned no result")
            }
            do {
                return try BiDiRemoteValue.json(from: remote)
            } catch {
                throw FirefoxError(.malformedMessage, "script.evaluate: \(error)")
            }
        }

        /// A PNG screenshot of the viewport.
        public func screenshot() async throws -> Data {
            let shot = try await connection.send("browsingContext.captureScreenshot", ["context": .string(context)])
            guard let text = shot["data"]?.stringValue, let data = Data(base64Encoded: text) else {
                throw FirefoxError(.malformedMessage, "the screenshot is not base64")
            }
            return data
        }

        /// The page as a PDF, printed by Firefox (`browsingContext.print`).
        ///
        /// - Parameter options: Paper size and background. Default: US Letter, no background.
        /// - Returns: The PDF's bytes (they start with `%PDF-`).
        public func printToPDF(_ options: FirefoxPDFOptions = FirefoxPDFOptions()) async throws -> Data {
            let printed = try await connection.send(
                "browsingContext.print",
                [
                    "context": .string(context), "background": .bool(options.background),
                    "page": ["width": .double(options.pageWidth), "height": .double(options.pageHeight)],
                ])
            guard let text = printed["data"]?.stringValue, let data = Data(base64Encoded: text) else {
                throw FirefoxError(.malformedMessage, "the PDF is not base64")
            }
            return data
        }

        /// Closes the page's browsing context (and its window).
        public func close() async throws {
            browser.openedContexts.withLock { _ = $0.remove(context) }
            try await connection.send("browsingContext.close", ["context": .string(context)])
        }
    }
#endif
