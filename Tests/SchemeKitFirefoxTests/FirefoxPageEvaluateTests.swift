#if Firefox
    import Foundation
    import LoopbackTestSupport
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
        /// Runs `body` with a Firefox whose origin answers every path with a small page; closed after.
        static func withHarness(_ body: (FirefoxHarness) async throws -> Void) async throws {
            try await FirefoxHarness.with { registry in
                try registry.register(
                    StaticHandler("<!doctype html><title>page</title>", mimeType: "text/html"), for: "app")
            } _: { harness in
                try await body(harness)
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
            try await Self.withHarness { harness in
                try await harness.openOrigin("/first.html")
                let result = await Self.evaluate(harness.page, expression)
                guard case .failure(let error) = result else { Issue.record("a value: \(result)"); return }
                #expect(!(error is TimedOut), "it waited")
                let firefox = try #require(error as? EngineError)
                #expect(firefox.code == .evaluationFailed, "\(firefox)")
                #expect("\(firefox)".contains("navigated"), "\(firefox)")
                // The page is still usable.
                #expect(try await harness.page.evaluate("1 + 1") == .number(2))
            }
        }

        /// A navigation Firefox cannot complete (nothing listens on the port) throws
        /// `navigationFailed`, as on Chromium and WebKitGTK, with Firefox's error in `protocolCode`.
        @Test func aNavigationThatFailsThrowsNavigationFailed() async throws {
            try await Self.withHarness { harness in
                let error = await #expect(throws: EngineError.self) {
                    try await harness.page.navigate(to: "http://127.0.0.1:1/", timeout: .seconds(20))
                }
                #expect(error?.code == .navigationFailed, "\(String(describing: error))")
                #expect(error?.protocolCode != nil, "\(String(describing: error))")
                // The page stays usable.
                try await harness.openOrigin("/first.html")
                #expect(try await harness.page.evaluate("1 + 1") == .number(2))
            }
        }

        /// An expression that starts a navigation and returns at once keeps its value.
        @Test func anExpressionThatNavigatesButReturnsAtOnceKeepsItsValue() async throws {
            try await Self.withHarness { harness in
                try await harness.openOrigin("/first.html")
                #expect(
                    try await harness.page.evaluate("setTimeout(() => location.href = '/next.html', 0); 7")
                        == .number(7))
            }
        }

        @Test func anExpressionWhosePageClosesFails() async throws {
            try await Self.withHarness { harness in
                try await harness.openOrigin("/first.html")
                let page = harness.page
                async let pending = Self.evaluate(page, "new Promise(() => {})")
                // The evaluation is out, waiting for an answer the closed page will never give.
                #expect(await eventually { harness.browser.connection.pendingCommands("script.evaluate") == 1 })
                try await page.close()
                let result = await pending
                guard case .failure(let error) = result else { Issue.record("a value: \(result)"); return }
                #expect(!(error is TimedOut), "it waited")
                #expect((error as? EngineError)?.code == .evaluationFailed, "\(error)")
                #expect("\(error)".contains("closed"), "\(error)")
            }
        }
    }
#endif
