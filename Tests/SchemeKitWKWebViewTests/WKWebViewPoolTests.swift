import Foundation
import SchemeKit
import SchemeKitTesting
import SchemeKitWKWebViewStandIn
import Synchronization
import Testing
import WebKitStandIn

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `WKWebViewSession`s on a `SessionPool` with the main queue as its executor: pre-warm, the
/// holder's loads, reset to the adapter's blank page, reuse up to the maximum, a drain on a memory
/// warning, a crashed web process discarded.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct WKWebViewPoolTests {
    final class Holder {}

    let registry = SchemeRegistry()
    let configuration = WKWebViewConfiguration()
    let adapter: WKWebViewSchemeAdapter
    let made = Counter()

    init() throws {
        try registry.register(StaticHandler("<h1>app</h1>", mimeType: "text/html"), for: "app")
        adapter = WKWebViewSchemeAdapter(registry: registry)
        try configuration.setURLSchemeHandler(adapter)
    }

    func makePool(maximumReuses: Int = 100) -> SessionPool<WKWebViewSession> {
        let configuration = configuration
        let made = made
        return SessionPool(
            configuration: SessionPoolConfiguration(
                warmCount: 1, maximumCount: 2, maximumReuses: maximumReuses, sweepInterval: nil),
            executor: DispatchQueue.main
        ) {
            made.increment()
            return await WKWebViewSession.make(
                configuration: configuration, blankURL: WKWebViewSchemeAdapter.blankURL(scheme: "app"))
        }
    }

    /// The warm view is handed out, loads the app, is reset to the blank page (scripts removed,
    /// the page's tasks stopped) and handed out again: the second load comes from the pool.
    @Test func aWarmViewIsResetToTheBlankPageAndReused() async throws {
        let pool = makePool()
        await pool.start()
        #expect(made.value == 1)
        let blank = WKWebViewSchemeAdapter.blankURL(scheme: "app")
        let holder = Holder()
        let session = try await pool.acquire(for: holder)
        #expect(session.webView.navigations == [blank])
        session.webView.load(URLRequest(url: URL(string: "app://localhost/index.html")!))
        // A request the page leaves open when the holder gives the view back.
        let pending = session.webView.start(URLRequest(url: URL(string: "app://localhost/index.html")!))
        session.webView.configuration.userContentController.addUserScriptForTesting()
        try await pool.recycle(session)
        #expect(session.resetCount == 1)
        #expect(session.webView.navigations.last == blank)
        #expect(session.webView.configuration.userContentController.userScriptCount == 0)
        #expect(pending?.violations.isEmpty == true)
        let again = try await pool.acquire(for: holder)
        #expect(again === session)
        let statistics = await pool.statistics
        #expect(statistics.hits == 2)
        #expect(statistics.created == 2)  // the warm view, and its replacement in the warm set
        try await pool.recycle(again)
        await pool.shutDown()
    }

    /// After `maximumReuses` holders a view is torn down and a new one made.
    @Test func aViewIsRetiredAfterItsMaximumReuses() async throws {
        let pool = makePool(maximumReuses: 2)
        let holder = Holder()
        let first = try await pool.acquire(for: holder)
        try await pool.recycle(first)
        let second = try await pool.acquire(for: holder)
        #expect(second === first)
        try await pool.recycle(second)
        let third = try await pool.acquire(for: holder)
        #expect(third !== first)
        #expect(await pool.statistics.retired == 1)
        try await pool.recycle(third)
        await pool.shutDown()
    }

    /// A memory warning drains the idle views; views in use stay.
    @Test func aMemoryWarningDrainsTheIdleViews() async throws {
        let pool = makePool()
        await pool.start()
        let holder = Holder()
        let inUse = try await pool.acquire(for: holder)
        await pool.waitForBackgroundWork()
        #expect(await pool.statistics.idle == 1)
        let (warnings, continuation) = AsyncStream.makeStream(of: Void.self)
        continuation.yield()
        continuation.finish()
        await pool.drainOnMemoryWarnings(warnings)
        #expect(await pool.statistics.idle == 0)
        #expect(await pool.statistics.drained == 1)
        #expect(await inUse.isHealthy())
        try await pool.recycle(inUse)
        await pool.shutDown()
    }

    /// A view whose web content process ended is discarded, not handed out again.
    @Test func aViewWhoseProcessEndedIsDiscarded() async throws {
        let pool = makePool()
        let holder = Holder()
        let session = try await pool.acquire(for: holder)
        session.webContentProcessDidTerminate()
        try await pool.recycle(session)
        let next = try await pool.acquire(for: holder)
        #expect(next !== session)
        #expect(await pool.statistics.discarded == 1)
        try await pool.recycle(next)
        await pool.shutDown()
    }
}

/// A count shared with the pool's factory.
final class Counter: Sendable {
    private let count = Locked(0)

    var value: Int { count.withLock { $0 } }

    func increment() { count.withLock { $0 += 1 } }
}
