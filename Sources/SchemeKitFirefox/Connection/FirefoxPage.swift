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
    /// let pdf = try await page.printToPDF(PDFOptions(background: true))
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
        /// - Throws: `EngineError`: `EngineError.Code.navigationFailed` when Firefox reports that the
        ///   navigation failed (its BiDi error in `protocolCode`), `EngineError.Code.timedOut`.
        public func navigate(to url: String, timeout: Duration = .seconds(30)) async throws {
            let connection = self.connection
            let context = self.context
            do {
                _ = try await withDeadline(
                    timeout, orThrow: { EngineError(.timedOut, "\(url) did not load within \(timeout)") }
                ) {
                    try await connection.send(
                        "browsingContext.navigate",
                        ["context": .string(context), "url": .string(url), "wait": "complete"])
                }
            } catch let error as EngineError where error.code == .protocolError {
                throw EngineError(
                    .navigationFailed, "navigation to \(url) failed: \(error.message)", protocolCode: error.protocolCode
                )
            }
        }

        /// Evaluates `expression` in the page, awaiting a Promise, and returns its value.
        ///
        /// The contract is the same on every engine (see `JavaScriptValue`): the value as the page's
        /// `JSON.stringify` gives it (a `BigInt` as its digits; `undefined` as `null`).
        ///
        /// ```swift
        /// let secure = try await page.evaluate("isSecureContext").boolValue
        /// let report = try await page.evaluate("window.sampleReport").decode(as: SampleReport.self)
        /// print(try await page.evaluate("({a: [1, 2.5]})"))     // {"a":[1,2.5]}
        /// ```
        ///
        /// - Returns: The value; print it to see it as JSON text.
        /// - Throws: `EngineError.Code.evaluationFailed` with the exception's text when the
        ///   expression throws, the Promise rejects or the value has a cycle, and when the page
        ///   navigates to another document or closes before the value is ready.
        public func evaluate(_ expression: String) async throws -> JavaScriptValue {
            JavaScriptValue(try await evaluateValue(expression))
        }

        /// The events that end the realm an expression runs in: a new document committed in the
        /// page, or the page closed. ``FirefoxBrowser/newPage(url:)`` subscribes to them for the page.
        static let lifecycleEvents: Set<String> = [
            "browsingContext.navigationCommitted", "browsingContext.contextDestroyed",
        ]

        /// `script.evaluate`, the result as JSON.
        ///
        /// Firefox never answers an evaluation whose Promise was pending when its page navigated to
        /// another document, so the evaluation also ends at the page's next committed navigation or
        /// its closing, with `EngineError.Code.evaluationFailed`; an expression that starts a
        /// navigation and returns at once keeps its value.
        package func evaluateValue(_ expression: String) async throws -> BiDiValue {
            let connection = self.connection
            let context = self.context
            let browser = self.browser
            let lifecycle = connection.events(methods: Self.lifecycleEvents)
            return try await withThrowingTaskGroup(of: BiDiValue.self) { group in
                group.addTask {
                    do {
                        return try await Self.evaluate(expression, in: context, on: connection)
                    } catch let error as EngineError where error.protocolCode == "no such frame" {
                        // The realm went away as Firefox ran it: a closed page (``close()`` took it
                        // out of the opened ones first) or a new document.
                        let closed = !browser.openedContexts.withLock { $0.contains(context) }
                        throw EngineError(
                            .evaluationFailed, closed ? Self.closedMessage : Self.goneMessage,
                            protocolCode: error.protocolCode)
                    }
                }
                group.addTask {
                    for await event in lifecycle where event.params["context"]?.stringValue == context {
                        throw EngineError(
                            .evaluationFailed,
                            event.method == "browsingContext.contextDestroyed" ? Self.closedMessage : Self.goneMessage)
                    }
                    // The connection closed: the command fails with why (every pending one does);
                    // wait for that instead of racing it with an error of this task's own.
                    while true { try await Task.sleep(for: .seconds(3600)) }
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        }

        /// `script.evaluate` of `expression`; an object (a symbol too) comes back as a handle, which
        /// goes through the page's `JSON.stringify` and is then given up.
        private static func evaluate(_ expression: String, in context: String, on connection: FirefoxConnection)
            async throws -> BiDiValue
        {
            let target: BiDiValue = ["context": .string(context)]
            let evaluated = try await connection.send(
                "script.evaluate",
                [
                    "expression": .string(expression), "target": target, "awaitPromise": true,
                    "resultOwnership": "root", "serializationOptions": ["maxObjectDepth": 0],
                ])
            try checkException(evaluated)
            guard let remote = evaluated["result"] else {
                throw EngineError(.malformedMessage, "script.evaluate returned no result")
            }
            guard let handle = remote["handle"]?.stringValue else { return try json(fromPrimitive: remote) }
            let text: BiDiValue
            do {
                text = try await connection.send(
                    "script.callFunction",
                    [
                        "functionDeclaration": .string(JavaScriptValue.jsonTextFunction),
                        "this": ["handle": .string(handle)], "target": target, "awaitPromise": false,
                        "resultOwnership": "none",
                    ])
            } catch {
                _ = try? await connection.send("script.disown", ["handles": [.string(handle)], "target": target])
                throw error
            }
            _ = try? await connection.send("script.disown", ["handles": [.string(handle)], "target": target])
            try checkException(text)
            guard let json = text["result"]?["value"]?.stringValue else {
                throw EngineError(.malformedMessage, "the value's JSON text did not come back as a string")
            }
            do {
                return try BiDiJSONReader.read(Data(json.utf8))
            } catch {
                throw EngineError(.malformedMessage, "the value's JSON text: \(error)")
            }
        }

        /// Throws `EngineError.Code.evaluationFailed` with the exception of a `script.*` result.
        private static func checkException(_ result: BiDiValue) throws {
            guard result["type"]?.stringValue == "exception" else { return }
            let details = result["exceptionDetails"]
            throw EngineError(.evaluationFailed, details?["text"]?.stringValue ?? "the expression threw")
        }

        /// A primitive's RemoteValue as JSON.
        private static func json(fromPrimitive remote: BiDiValue) throws -> BiDiValue {
            do {
                return try BiDiRemoteValue.json(from: remote)
            } catch {
                throw EngineError(.malformedMessage, "script.evaluate: \(error)")
            }
        }

        private static let goneMessage =
            "the page navigated to another document before the expression's value was ready"
        private static let closedMessage = "the page closed before the expression's value was ready"

        /// A PNG screenshot of the viewport.
        public func screenshot() async throws -> Data {
            let shot = try await connection.send("browsingContext.captureScreenshot", ["context": .string(context)])
            guard let text = shot["data"]?.stringValue, let data = Data(base64Encoded: text) else {
                throw EngineError(.malformedMessage, "the screenshot is not base64")
            }
            return data
        }

        /// The page as a PDF, printed by Firefox (`browsingContext.print`).
        ///
        /// - Parameter options: Paper size and background. Default: US Letter, no background.
        /// - Returns: The PDF's bytes (they start with `%PDF-`).
        public func printToPDF(_ options: PDFOptions = PDFOptions()) async throws -> Data {
            let printed = try await connection.send(
                "browsingContext.print",
                [
                    "context": .string(context), "background": .bool(options.background),
                    "page": ["width": .double(options.pageWidth), "height": .double(options.pageHeight)],
                ])
            guard let text = printed["data"]?.stringValue, let data = Data(base64Encoded: text) else {
                throw EngineError(.malformedMessage, "the PDF is not base64")
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
