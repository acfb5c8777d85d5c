#if Firefox
    import Foundation
    import SchemeKit
    import SchemeKitBrowserSupport
    import SchemeKitTesting
    import Testing

    @testable import SchemeKitFirefox

    /// `FirefoxPage.evaluate` when the page goes away under the expression: it fails, as a
    /// Chromium page's does, instead of waiting forever for a value its realm can no longer give.
    /// And a navigation that fails throws the code it has on every engine.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct FirefoxPageEvaluateTests {
        static func harness() async throws -> FirefoxHarness {
            try await FirefoxHarness.start { registry in
                try registry.register(
                    StaticHandler("<!doctype html><title>page</title>", mimeType: "text/html"), for: "app")
            }
        }

        /// Evaluates `expression` with a bound, so that a hang fails the test instead of stalling it.
        static func evaluate(_ page: FirefoxPage, _ expression: String) async -> Result<JavaScriptValue, any Error> {
            do {
                return .success(
                    try await withDeadline(.seconds(15), orThrow: { TimedOut() }) {
                        try await page.evaluate(expression)
                    })
            } catch {
                return .failure(error)
            }
        }

        struct TimedOut: Error {}

        @Test(arguments: [
            "location.href = '/next.html'; new Promise(() => {})",
            "new Promise(() => setTimeout(() => location.reload(), 50))",
        ])
        func anExpressionWhosePageNavigatesAwayFails(expression: String) async throws {
            let harness = try await Self.harness()
            defer { Task { await harness.close() } }
            try await harness.openOrigin("/first.html")
            let result = await Self.evaluate(harness.page, expression)
            guard case .failure(let error) = result else { Issue.record("a value: \(result)"); return }
            #expect(!(error is TimedOut), "it waited")
            let firefox = try #require(error as? EngineError)
            #expect(firefox.code == .evaluationFailed, "\(firefox)")
            #expect("\(firefox)".contains("navigated"), "\(firefox)")
            // The page is still usable.
            #expect(try await harness.page.evaluate("1 + 1") == .number(2))
            await harness.close()
        }

        /// A navigation Firefox cannot complete (nothing listens on the port) throws
        /// `navigationFailed`, as on Chromium and WebKitGTK, with Firefox's error in `protocolCode`.
        @Test func aNavigationThatFailsThrowsNavigationFailed() async throws {
            let harness = try await Self.harness()
            defer { Task { await harness.close() } }
            let error = await #expect(throws: EngineError.self) {
                try await harness.page.navigate(to: "http://127.0.0.1:1/", timeout: .seconds(20))
            }
            #expect(error?.code == .navigationFailed, "\(String(describing: error))")
            #expect(error?.protocolCode != nil, "\(String(describing: error))")
            // The page stays usable.
            try await harness.openOrigin("/first.html")
            #expect(try await harness.page.evaluate("1 + 1") == .number(2))
            await harness.close()
        }

        /// An expression that starts a navigation and returns at once keeps its value.
        @Test func anExpressionThatNavigatesButReturnsAtOnceKeepsItsValue() async throws {
            let harness = try await Self.harness()
            defer { Task { await harness.close() } }
            try await harness.openOrigin("/first.html")
            #expect(
                try await harness.page.evaluate("setTimeout(() => location.href = '/next.html', 0); 7") == .number(7))
            await harness.close()
        }

        @Test func anExpressionWhosePageClosesFails() async throws {
            let harness = try await Self.harness()
            defer { Task { await harness.close() } }
            try await harness.openOrigin("/first.html")
            let page = harness.page
            async let pending = Self.evaluate(page, "new Promise(() => {})")
            try await Task.sleep(for: .milliseconds(200))
            try await page.close()
            let result = await pending
            guard case .failure(let error) = result else { Issue.record("a value: \(result)"); return }
            #expect(!(error is TimedOut), "it waited")
            #expect((error as? EngineError)?.code == .evaluationFailed, "\(error)")
            #expect("\(error)".contains("closed"), "\(error)")
            await harness.close()
        }
    }
#endif
