#if Firefox
    public import Foundation
    import SchemeKit
    import SchemeKitBrowserSupport

    /// A page: a top-level browsing context of a ``FirefoxBrowser``, in a window of its own.
    ///
    /// ```swift
    /// let page = try await browser.newPage()
    /// try await page.navigate(to: "https://app.localhost/index.html")
    /// let title = try await page.evaluate("document.title", as: String.self)
    /// let pdf = try await page.printToPDF(background: true)
    /// ```
    ///
    /// A page is a ``SchemeKit/PoolableSession`` (see ``FirefoxBrowser/makePagePool(configuration:)``).
    public final class FirefoxPage: Sendable {
        /// The browsing context's id.
        public let context: String
        /// The browser the page belongs to.
        public let browser: FirefoxBrowser
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

        /// Evaluates `expression` in the page, awaiting a promise, and decodes its value from JSON.
        ///
        /// The value is first turned into JSON much as `JSON.stringify` would (`undefined` is `null`).
        ///
        /// ```swift
        /// let secure = try await page.evaluate("isSecureContext", as: Bool.self)
        /// ```
        ///
        /// - Throws: ``FirefoxError/Code/evaluationFailed`` when the expression throws or rejects;
        ///   `DecodingError` when the value does not fit `type`.
        public func evaluate<Value: Decodable & Sendable>(_ expression: String, as type: Value.Type = Value.self)
            async throws -> Value
        {
            let json = try await evaluateJSON(expression)
            return try JSONDecoder().decode(Value.self, from: Data(json.utf8))
        }

        /// Evaluates `expression`, awaiting a promise, and returns its value as JSON text (objects with
        /// sorted keys): `true`, `"text"`, `{"a":1}`; `null` for `undefined`.
        ///
        /// - Throws: ``FirefoxError/Code/evaluationFailed`` with the exception's text.
        public func evaluateJSON(_ expression: String) async throws -> String {
            let value = try await evaluateValue(expression)
            var writer = BiDiJSONWriter(sortedKeys: true)
            writer.write(value)
            return String(decoding: writer.bytes, as: UTF8.self)
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
