// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import Foundation
    import LoopbackTestSupport
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

        /// Runs `body` with a new pool, then shuts it down (its idle views torn down), also when
        /// `body` throws; `body` tears down the views it holds (``tearingDown(_:_:)``).
        func withPool(
            _ harness: WebKitHarness, _ body: (SessionPool<WebViewSession>) async throws -> Void
        ) async throws {
            let pool = makePool(harness)
            do {
                try await body(pool)
                await pool.shutDown()
            } catch {
                await pool.shutDown()
                throw error
            }
        }

        @Test func aReleasedHolderGivesItsViewBack() async throws {
            let harness = try WebKitHarness.get()
            try await withPool(harness) { pool in
                var holder: Holder? = Holder()
                let session = try await withTimeLimit(.seconds(20), "acquire") { [holder] in
                    try await pool.acquire(for: holder!)
                }
                try await tearingDown(session) { session in
                    try await withTimeLimit(.seconds(20), "load") {
                        try await session.load("app://localhost/index.html")
                    }
                    holder = nil
                    try await withTimeLimit(.seconds(20), "sweep") { await pool.sweep() }
                    let statistics = await pool.statistics
                    #expect(statistics.reclaimed == 1)
                    #expect(statistics.inUse == 0)
                    let next = try await withTimeLimit(.seconds(20), "acquire again") {
                        try await pool.acquire(for: Holder())
                    }
                    #expect(next === session, "the warm view came back")
                }
            }
        }

        @Test func stateInjectedByOneHolderIsGoneForTheNext() async throws {
            let harness = try WebKitHarness.get()
            try await withPool(harness) { pool in
                let first = Holder()
                let session = try await withTimeLimit(.seconds(20), "acquire") { try await pool.acquire(for: first) }
                try await tearingDown(session) { session in
                    try await session.addUserScript("window.injected = 42;")
                    try await session.addScriptMessageHandler("probe") { _ in }
                    try await withTimeLimit(.seconds(20), "loads") {
                        try await session.load("app://localhost/index.html")
                        try await session.load("app://localhost/data/app.json")
                    }
                    #expect(try await session.evaluate("window.injected") == .number(42))
                    #expect(try await session.backHistoryCount() >= 1)

                    try await withTimeLimit(.seconds(20), "recycle") { try await pool.recycle(session) }
                    let second = Holder()
                    let next = try await withTimeLimit(.seconds(20), "acquire again") {
                        try await pool.acquire(for: second)
                    }
                    #expect(next === session)
                    #expect(try await next.backHistoryCount() == 0, "history is gone")
                    try await withTimeLimit(.seconds(20), "load") { try await next.load("app://localhost/index.html") }
                    #expect(
                        try await next.evaluate("typeof window.injected") == .string("undefined"), "user script is gone"
                    )
                    #expect(
                        try await next.evaluate("typeof (window.webkit && window.webkit.messageHandlers.probe)")
                            == .string("undefined"), "message handler is gone")
                }
            }
        }

        @Test func aViewWhoseWebProcessDiedIsReplaced() async throws {
            let harness = try WebKitHarness.get()
            try await withPool(harness) { pool in
                let holder = Holder()
                let session = try await withTimeLimit(.seconds(20), "acquire") { try await pool.acquire(for: holder) }
                try await session.terminateWebProcess()
                #expect(await session.isHealthy() == false)
                try await withTimeLimit(.seconds(20), "recycle") { try await pool.recycle(session) }
                #expect(await pool.statistics.discarded == 1)
                let next = try await withTimeLimit(.seconds(20), "acquire again") {
                    try await pool.acquire(for: holder)
                }
                try await tearingDown(next) { next in #expect(next !== session) }
            }
        }
    }
#endif
