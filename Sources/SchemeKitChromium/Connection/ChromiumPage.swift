#if Chromium
    public import Foundation
    public import SchemeKit
    import SchemeKitBrowserSupport

    /// A page (a DevTools target) with its own flattened session: navigate, evaluate, screenshot,
    /// print to PDF, close.
    ///
    /// A page is a `PoolableSession`: ``ChromiumBrowser/makePagePool(configuration:)``
    /// keeps warm pages ready.
    public final class ChromiumPage: Sendable {
        /// The target's id (also its main frame's id).
        package let targetId: String
        /// The flattened session's id.
        package let sessionId: String
        /// The connection the page belongs to.
        package let connection: ChromiumConnection

        init(targetId: String, sessionId: String, connection: ChromiumConnection) {
            self.targetId = targetId
            self.sessionId = sessionId
            self.connection = connection
        }

        static func attach(to targetId: String, connection: ChromiumConnection) async throws -> ChromiumPage {
            let attached = try await connection.send(CDP.AttachToTarget(targetId: targetId))
            let page = ChromiumPage(targetId: targetId, sessionId: attached.sessionId, connection: connection)
            try await page.send("Page.enable")
            try await page.send("Runtime.enable")
            return page
        }

        /// Sends a command to this page's session; see ``ChromiumConnection/send(_:_:sessionId:)``.
        @discardableResult
        package func send(_ method: String, _ params: CDPValue = .object([:])) async throws -> CDPValue {
            try await connection.send(method, params, sessionId: sessionId)
        }

        /// Sends a typed command to this page's session.
        @discardableResult
        package func send<Command: CDPCommand>(_ command: Command) async throws -> Command.Result {
            try await connection.send(command, sessionId: sessionId)
        }

        /// This page's events; see ``ChromiumConnection/events(sessionId:methods:bufferLimit:)``.
        package func events(methods: Set<String>? = nil) -> AsyncStream<CDPEvent> {
            connection.events(sessionId: .some(sessionId), methods: methods)
        }

        /// Navigates and waits for the `load` event.
        ///
        /// - Parameters:
        ///   - url: Where to go.
        ///   - timeout: The most to wait for the navigation and its `load`, the document's
        ///     response included. Default: 30 seconds. A same-document navigation (`#fragment`)
        ///     returns as soon as Chromium has done it.
        /// - Throws: `EngineError`: `EngineError.Code.navigationFailed` carrying Chromium's `errorText`
        ///   when the navigation fails, `EngineError.Code.timedOut`.
        public func navigate(to url: String, timeout: Duration = .seconds(30)) async throws {
            let loads = events(methods: ["Page.loadEventFired"])
            // One deadline for all of it: `Page.navigate` itself answers only once the document's
            // response has started, which a handler that never answers holds back.
            try await withDeadline(timeout) {
                let result = try await self.send(CDP.Navigate(url: url))
                if let errorText = result.errorText {
                    throw EngineError(.navigationFailed, "navigation to \(url) failed: \(errorText)")
                }
                // A same-document navigation (`#fragment`) has no loader and fires no `load`.
                guard result.loaderId != nil else { return }
                for await _ in loads { return }
                throw EngineError(.disconnected, "the connection closed during navigation")
            }
        }

        /// Evaluates `expression` in the page (a script: its completion value is the result),
        /// awaiting a Promise, and returns its value.
        ///
        /// The contract is the same on every engine (see `JavaScriptValue`): the value as the page's
        /// `JSON.stringify` gives it (a `BigInt` as its digits; `undefined` as `null`).
        ///
        /// - Returns: The value; print it to see it as JSON text.
        /// - Throws: `EngineError.Code.evaluationFailed` with the exception's text when the
        ///   expression throws, the Promise rejects, or the value has a cycle.
        public func evaluate(_ expression: String) async throws -> JavaScriptValue {
            // Read the reply's few fields in place: a result may hold what JSON cannot (NaN).
            let reply = try await send(
                "Runtime.evaluate",
                .object(["expression": .string(expression), "awaitPromise": .bool(true)]))
            try Self.checkException(reply)
            let result = reply["result"] ?? .null
            // A primitive comes with its value; an object (a symbol too) as a reference, given to
            // the page's JSON.stringify and released.
            guard let objectId = result["objectId"]?.stringValue else { return JavaScriptValue(remoteObject: result) }
            let text: CDPValue
            do {
                text = try await send(
                    "Runtime.callFunctionOn",
                    .object([
                        "objectId": .string(objectId), "functionDeclaration": .string(JavaScriptValue.jsonTextFunction),
                        "returnByValue": .bool(true),
                    ]))
            } catch {
                _ = try? await send("Runtime.releaseObject", .object(["objectId": .string(objectId)]))
                throw error
            }
            _ = try? await send("Runtime.releaseObject", .object(["objectId": .string(objectId)]))
            try Self.checkException(text)
            guard let json = text["result"]?["value"]?.stringValue else {
                throw EngineError(.malformedMessage, "the value's JSON text did not come back as a string")
            }
            return try JavaScriptValue(json: Data(json.utf8))
        }

        /// Throws `EngineError.Code.evaluationFailed` with the exception of `reply`, if any.
        private static func checkException(_ reply: CDPValue) throws {
            guard let exception = reply["exceptionDetails"] else { return }
            let detail =
                exception["exception"]?["description"]?.stringValue ?? exception["text"]?.stringValue ?? "exception"
            throw EngineError(.evaluationFailed, detail)
        }

        /// A PNG screenshot of the viewport.
        public func screenshot() async throws -> Data {
            let shot = try await send(CDP.CaptureScreenshot())
            guard let data = Data(base64Encoded: shot.data) else {
                throw EngineError(.malformedMessage, "screenshot data is not base64")
            }
            return data
        }

        /// The page as a PDF, printed by Chromium (`Page.printToPDF`).
        ///
        /// - Parameter options: Paper size and background. Default: US Letter, no background.
        /// - Returns: The PDF's bytes (they start with `%PDF-`).
        public func printToPDF(_ options: PDFOptions = PDFOptions()) async throws -> Data {
            let printed = try await send(
                "Page.printToPDF",
                .object([
                    "paperWidth": .double(options.pageWidth / 2.54), "paperHeight": .double(options.pageHeight / 2.54),
                    "printBackground": .bool(options.background),
                ]))
            guard let data = printed["data"]?.binaryData else {
                throw EngineError(.malformedMessage, "Page.printToPDF returned no data")
            }
            return data
        }

        /// Closes the page's target.
        public func close() async throws {
            try await connection.send(CDP.CloseTarget(targetId: targetId))
        }
    }
#endif
