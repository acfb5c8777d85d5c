#if Chromium
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import SchemeKitChromium
    import SchemeKitTesting
    import Synchronization
    import Testing

    /// What an embedder's renderer relies on around a page's life: nothing it awaits hangs when the
    /// page goes away or the document never answers, a fragment navigation returns at once, and the
    /// adapter can be stopped and started (even twice) without breaking new pages or answering a
    /// request twice.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct ChromiumPageLifecycleTests {
        @Test func anEvaluationPendingWhenThePageClosesFailsInsteadOfHanging() async throws {
            try await ChromiumHarness.with { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
            } _: { harness in
                try await harness.openOrigin()
                let page = harness.page
                let started = ContinuousClock.now
                let pending = Task { try await page.evaluate("new Promise(() => {})") }
                // The evaluation is out, waiting for an answer the closed page will never give.
                #expect(await eventually { harness.browser.connection.pendingCommands("Runtime.evaluate") == 1 })
                try await page.close()
                await #expect(throws: EngineError.self) { _ = try await pending.value }
                #expect(ContinuousClock.now - started < .seconds(10))
                // A command sent to the closed page fails too.
                await #expect(throws: EngineError.self) { _ = try await page.evaluate("1") }
            }
        }

        /// The same on every engine: an evaluation whose page navigates to another document before
        /// its Promise settles fails (Firefox's adapter matches it), and the page stays usable.
        @Test func anEvaluationPendingWhenThePageNavigatesAwayFails() async throws {
            try await ChromiumHarness.with { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/")
            } _: { harness in
                try await harness.openOrigin()
                let page = harness.page
                let started = ContinuousClock.now
                let pending = Task { try await page.evaluate("location.href = '/next.html'; new Promise(() => {})") }
                await #expect(throws: EngineError.self) { _ = try await pending.value }
                #expect(ContinuousClock.now - started < .seconds(10))
                #expect(try await page.evaluate("1 + 1") == .number(2))
            }
        }

        /// A navigation the browser cannot complete (nothing listens on the port) throws the code a
        /// failed navigation has on every engine, with Chromium's `errorText`.
        @Test func aNavigationThatFailsThrowsNavigationFailed() async throws {
            try await ChromiumHarness.with { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
            } _: { harness in
                let error = await #expect(throws: EngineError.self) {
                    try await harness.page.navigate(to: "http://127.0.0.1:1/", timeout: .seconds(20))
                }
                #expect(error?.code == .navigationFailed, "\(String(describing: error))")
                #expect(error?.message.contains("ERR_") == true, "\(String(describing: error))")
                // The page stays usable.
                try await harness.openOrigin()
                #expect(try await harness.page.evaluate("1 + 1") == .number(2))
            }
        }

        @Test func navigationTimesOutWhenTheDocumentNeverAnswersAndFragmentsReturnAtOnce() async throws {
            let hanging = HangingHandler(writesHead: false)
            try await ChromiumHarness.with { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(hanging, for: "app", pathPrefix: "/hang")
            } _: { harness in
                let started = ContinuousClock.now
                await #expect(throws: EngineError.self) {
                    try await harness.page.navigate(to: "https://app.localhost/hang", timeout: .seconds(2))
                }
                #expect(ContinuousClock.now - started < .seconds(8), "the 2 s timeout holds")
                try await harness.openOrigin()
                let fragment = ContinuousClock.now
                try await harness.page.navigate(to: "https://app.localhost/blank.html#section", timeout: .seconds(10))
                #expect(ContinuousClock.now - fragment < .seconds(3))
                #expect(try await harness.page.evaluate("location.hash") == .string("#section"))
            }
        }

        @Test func aStoppedAdapterLeavesNewPagesWorkingAndStartsAgainOnce() async throws {
            let posts = Atomic(0)
            let counter = ClosureHandler(name: "counter", methods: [.post]) { _, writer in
                posts.add(1, ordering: .relaxed)
                try await writer.respond(.ok, body: Data("counted".utf8))
                return .handled
            }
            try await ChromiumHarness.with { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(counter, for: "app", pathPrefix: "/count")
            } _: { harness in
                await harness.adapter.stop()
                let later = try await harness.browser.newPage()
                try await later.navigate(to: "data:text/html,<title>after stop</title>", timeout: .seconds(8))
                #expect(try await later.evaluate("document.title") == .string("after stop"))

                try await harness.adapter.start()
                try await harness.adapter.start()
                try await harness.openOrigin()
                let answer = try await harness.page.evaluate("fetch('/count', {method: 'POST'}).then(r => r.text())")
                #expect(answer == .string("counted"))
                #expect(posts.load(ordering: .relaxed) == 1, "one request, one handler run")
            }
        }
    }
#endif
