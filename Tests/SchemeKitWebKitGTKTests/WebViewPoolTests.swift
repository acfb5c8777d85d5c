// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import Foundation
    import SchemeKit
    import SchemeKitWebKitGTK
    import Synchronization
    import Testing

    /// The session pool with real web views.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct WebViewPoolTests {
        final class Holder: Sendable {}

        func makePool(_ harness: WebKitHarness) -> SessionPool<WebViewSession> {
            let executor = harness.glib.executor
            return SessionPool(
                configuration: .init(warmCount: 1, maximumCount: 2, sweepInterval: nil), executor: executor
            ) {
                try await WebViewSession.make(executor: executor)
            }
        }

        @Test func aReleasedHolderGivesItsViewBack() async throws {
            let harness = try WebKitHarness.get()
            let pool = makePool(harness)
            var holder: Holder? = Holder()
            let session = try await withTimeout(20, "acquire") { [holder] in try await pool.acquire(for: holder!) }
            try await withTimeout(20, "load") { try await session.load("app://localhost/index.html") }
            holder = nil
            try await withTimeout(20, "sweep") { await pool.sweep() }
            let statistics = await pool.statistics
            #expect(statistics.reclaimed == 1)
            #expect(statistics.inUse == 0)
            let next = try await withTimeout(20, "acquire again") { try await pool.acquire(for: Holder()) }
            #expect(next === session, "the warm view came back")
            await pool.shutDown()
            await session.tearDown()
        }

        @Test func stateInjectedByOneHolderIsGoneForTheNext() async throws {
            let harness = try WebKitHarness.get()
            let pool = makePool(harness)
            let first = Holder()
            let session = try await withTimeout(20, "acquire") { try await pool.acquire(for: first) }
            try await session.addUserScript("window.injected = 42;")
            try await session.addScriptMessageHandler("probe") { _ in }
            try await withTimeout(20, "loads") {
                try await session.load("app://localhost/index.html")
                try await session.load("app://localhost/data/app.json")
            }
            #expect(try await session.evaluate("window.injected") == .number(42))
            #expect(try await session.backHistoryCount() >= 1)

            try await withTimeout(20, "recycle") { try await pool.recycle(session) }
            let second = Holder()
            let next = try await withTimeout(20, "acquire again") { try await pool.acquire(for: second) }
            #expect(next === session)
            #expect(try await next.backHistoryCount() == 0, "history is gone")
            try await withTimeout(20, "load") { try await next.load("app://localhost/index.html") }
            #expect(try await next.evaluate("typeof window.injected") == .string("undefined"), "user script is gone")
            #expect(
                try await next.evaluate("typeof (window.webkit && window.webkit.messageHandlers.probe)")
                    == .string("undefined"), "message handler is gone")
            await pool.shutDown()
            await next.tearDown()
        }

        @Test func aViewWhoseWebProcessDiedIsReplaced() async throws {
            let harness = try WebKitHarness.get()
            let pool = makePool(harness)
            let holder = Holder()
            let session = try await withTimeout(20, "acquire") { try await pool.acquire(for: holder) }
            try await session.terminateWebProcess()
            #expect(await session.isHealthy() == false)
            try await withTimeout(20, "recycle") { try await pool.recycle(session) }
            #expect(await pool.statistics.discarded == 1)
            let next = try await withTimeout(20, "acquire again") { try await pool.acquire(for: holder) }
            #expect(next !== session)
            await pool.shutDown()
            await next.tearDown()
        }
    }
#endif
