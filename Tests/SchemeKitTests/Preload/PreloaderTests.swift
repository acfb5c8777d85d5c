import Foundation
import LoopbackTestSupport
import SchemeKit
import SchemeKitTesting
import Synchronization
import Testing

/// A clock the tests move by hand: expiry without sleeping.
final class ManualClock: Sendable {
    private let instant = Locked(ContinuousClock.now)
    var now: ContinuousClock.Instant { instant.withLock { $0 } }
    func advance(by duration: Duration) { instant.withLock { $0 += duration } }
}

struct PreloaderTests {
    func setUp(
        _ configuration: Preloader.Configuration = .init(),
        clock: ManualClock = ManualClock()
    ) throws -> (OriginServer, Preloader, SchemeRegistry) {
        let origin = try OriginServer.shared()
        let preloader = Preloader(
            allowedHosts: [], upstream: origin.upstream(), configuration: configuration, now: { clock.now })
        let registry = SchemeRegistry()
        try registry.register(PreloadHandler(preloader: preloader), for: "app")
        return (origin, preloader, registry)
    }

    func url(_ string: String) -> URL { URL(string: string)! }

    @Test func anEngineRequestAttachesToThePreloadAndGetsTheReceivedBytesAtOnce() async throws {
        let (origin, preloader, registry) = try setUp()
        let path = "/" + OriginServer.unique("preload-attach")
        let gate = OriginServer.unique("gate")
        // The origin sends the first chunk, then holds the other three until the gate opens.
        let query = "chunks=4&chunk=1000&gate=\(gate):1"
        #expect(preloader.preload(url("app://x\(path)?\(query)#ignored")))
        #expect(await eventually { preloader.bufferedBytes == 1000 })

        let sink = RecordingSink()
        let task = registry.task(for: try SchemeRequest("APP://X:\(path)?\(query)"), sink: sink)
        task.start()
        // The engine gets the already received bytes while the origin is still holding the rest.
        #expect(await eventually { sink.body.count == 1000 })
        #expect(sink.body == OriginServer.pattern(count: 1000))
        #expect(!sink.isFinished)
        #expect(try await origin.stats(path).completed == 0)
        try await origin.release(gate)
        await withTimeout(sink)
        #expect(sink.body == OriginServer.pattern(count: 4000))
        #expect(sink.isFinished)
        #expect(try await origin.stats(path).requests == 1)
        let timing = try #require(preloader.recentTimings.last)
        #expect(timing.source == .preload)
        #expect(timing.outcome == .finished)
        #expect(timing.bytes == 4000)
        #expect(timing.headStart != nil)
        #expect(preloader.metrics.preloadsClaimed == 1)
    }

    /// A preloaded redirect reaches the page as the network handler gives it: on the page's
    /// origin when the origin redirected to itself.
    @Test func aPreloadedRedirectToTheOriginItselfStaysOnThePagesOrigin() async throws {
        let (origin, preloader, registry) = try setUp()
        for (location, expected) in NetworkFallbackHandlerTests.redirects(port: origin.port) {
            let target =
                "app://x/\(OriginServer.unique("preload-redirect"))?"
                + NetworkFallbackHandlerTests.redirectQuery(location)
            #expect(preloader.preload(url(target)))
            let sink = RecordingSink()
            await registry.handle(try SchemeRequest(target), sink: sink)
            #expect(sink.response?.status.code == 302, "\(location)")
            #expect(sink.response?.headerFields[.location] == expected, "\(location)")
        }
    }

    @Test func aCompletePreloadIsServedWithoutANewFetch() async throws {
        let (origin, preloader, registry) = try setUp()
        let path = "/" + OriginServer.unique("preload-complete")
        preloader.preload(url("app://X\(path)?size=5000"))
        try await origin.waitForStats(path) { $0.completed == 1 }
        #expect(await eventually { preloader.bufferedBytes == 5000 })
        let sink = RecordingSink()
        try await withTimeout { await registry.handle(try SchemeRequest("app://x\(path)?size=5000"), sink: sink) }
        #expect(sink.body == OriginServer.pattern(count: 5000))
        #expect(try await origin.stats(path).requests == 1)
        #expect(!preloader.isPreloaded(url("app://x\(path)?size=5000")), "a claimed preload is used once")
    }

    @Test func hundredIdenticalRequestsShareOneUpstreamFetch() async throws {
        let (origin, preloader, registry) = try setUp()
        let path = "/" + OriginServer.unique("coalesce-100")
        let gate = OriginServer.unique("gate")
        // The origin holds the head until all 100 requests are waiting for it.
        let request = try SchemeRequest("app://x\(path)?wait=\(gate)&size=200000")
        let sinks = (0..<100).map { _ in RecordingSink() }
        let all = Task {
            await withTaskGroup(of: Void.self) { group in
                for sink in sinks { group.addTask { await registry.handle(request, sink: sink) } }
            }
        }
        #expect(await eventually(timeout: TestTiming.scaled(.seconds(20))) { preloader.metrics.joined == 99 })
        try await origin.release(gate)
        _ = try? await withTimeout(TestTiming.scaled(.seconds(30))) { await all.value }
        let expected = OriginServer.pattern(count: 200_000)
        for sink in sinks {
            #expect(sink.isFinished)
            #expect(sink.body == expected)
            #expect(sink.violations.isEmpty)
        }
        #expect(try await origin.stats(path).requests == 1)
        #expect(preloader.metrics.upstreamFetches == 1)
        #expect(preloader.metrics.joined == 99)
        #expect(preloader.bufferedBytes == 0, "nothing stays buffered once everyone has read it")
    }

    @Test func stoppingSomeTasksDoesNotDisturbTheOthers() async throws {
        let (origin, _, registry) = try setUp()
        let path = "/" + OriginServer.unique("coalesce-stop-some")
        let gate = OriginServer.unique("gate")
        // The origin sends the first chunk, then holds the other 29 until the gate opens.
        let request = try SchemeRequest("app://x\(path)?chunks=30&chunk=1000&gate=\(gate):1")
        let sinks = (0..<5).map { _ in RecordingSink() }
        let tasks = sinks.map { registry.task(for: request, sink: $0) }
        for task in tasks { task.start() }
        #expect(await eventually { sinks.allSatisfy { !$0.body.isEmpty } })
        for index in 0..<3 {
            tasks[index].stop()
            sinks[index].markStopped()
        }
        try await origin.release(gate)
        for sink in sinks[3...] { await withTimeout(sink) }
        for sink in sinks[3...] {
            #expect(sink.isFinished)
            #expect(sink.body == OriginServer.pattern(count: 30_000))
        }
        for sink in sinks { #expect(sink.violations.isEmpty) }
        let stats = try await origin.waitForStats(path) { $0.completed == 1 }
        #expect(stats.requests == 1)
        #expect(stats.completed == 1)
        #expect(stats.aborted == 0)
    }

    @Test func upstreamIsCancelledOnlyAfterTheLastHolderLeaves() async throws {
        let (origin, preloader, registry) = try setUp()
        let path = "/" + OriginServer.unique("coalesce-last-holder")
        let first = OriginServer.unique("gate")
        let second = OriginServer.unique("gate")
        // The origin sends one chunk, holds until `first` opens, sends one more, then holds the
        // remaining 398 behind `second` (never opened: only the last stop can end the exchange).
        let request = try SchemeRequest("app://x\(path)?chunks=400&chunk=1000&gate=\(first):1&gate=\(second):2")
        let sinks = (0..<3).map { _ in RecordingSink() }
        let tasks = sinks.map { registry.task(for: request, sink: $0) }
        for task in tasks { task.start() }
        #expect(await eventually { sinks.allSatisfy { !$0.body.isEmpty } })
        tasks[0].stop()
        tasks[1].stop()
        // Both stopped tasks have left the fetch (each records its timing as it leaves) ...
        #expect(await eventually { preloader.recentTimings.filter { $0.outcome == .stopped }.count == 2 })
        #expect(preloader.metrics.cancelled == 0)
        // ... and the remaining task keeps receiving: the upstream is still alive.
        try await origin.release(first)
        #expect(await eventually { sinks[2].body.count == 2000 })
        #expect(sinks[2].body == OriginServer.pattern(count: 2000))
        #expect(try await origin.stats(path).aborted == 0)
        #expect(preloader.metrics.cancelled == 0)
        tasks[2].stop()
        let stats = try await origin.waitForStats(path) { $0.aborted == 1 }
        #expect(stats.aborted == 1)
        #expect(stats.completed == 0)
        #expect(stats.requests == 1)
        #expect(preloader.metrics.cancelled == 1)
    }

    @Test func cancellingAnUnclaimedPreloadCancelsItsFetch() async throws {
        let (origin, preloader, _) = try setUp()
        let path = "/" + OriginServer.unique("preload-cancel")
        // The origin holds the body after the first chunk; only the cancel can end the exchange.
        let target = url("app://x\(path)?chunks=400&chunk=1000&gate=\(OriginServer.unique("gate")):1")
        preloader.preload(target)
        #expect(await eventually { preloader.bufferedBytes == 1000 })
        #expect(preloader.cancelPreload(target))
        let stats = try await origin.waitForStats(path) { $0.aborted == 1 }
        #expect(stats.aborted == 1)
        #expect(stats.completed == 0)
        #expect(await eventually { preloader.bufferedBytes == 0 })
    }

    @Test func unclaimedPreloadsExpire() async throws {
        let clock = ManualClock()
        let (origin, preloader, registry) = try setUp(.init(expiry: .seconds(180)), clock: clock)
        let path = "/" + OriginServer.unique("preload-expire")
        let target = url("app://x\(path)?size=2000")
        preloader.preload(target)
        try await origin.waitForStats(path) { $0.completed == 1 }
        clock.advance(by: .seconds(179))
        #expect(preloader.isPreloaded(target))
        clock.advance(by: .seconds(2))
        preloader.removeExpired()
        #expect(!preloader.isPreloaded(target))
        #expect(preloader.metrics.expired == 1)
        #expect(await eventually { preloader.bufferedBytes == 0 })

        let sink = RecordingSink()
        try await withTimeout { await registry.handle(try SchemeRequest("app://x\(path)?size=2000"), sink: sink) }
        #expect(sink.body == OriginServer.pattern(count: 2000))
        #expect(try await origin.stats(path).requests == 2, "an expired preload is fetched again")
        #expect(preloader.recentTimings.last?.source == .network)
    }

    @Test func overTheMemoryBoundTheOldestUnclaimedPreloadIsDropped() async throws {
        let (origin, preloader, _) = try setUp(.init(memoryLimit: 150_000))
        let pathA = "/" + OriginServer.unique("preload-memory-a")
        let pathB = "/" + OriginServer.unique("preload-memory-b")
        let first = url("app://x\(pathA)?size=100000")
        let second = url("app://x\(pathB)?size=100000")
        preloader.preload(first)
        try await origin.waitForStats(pathA) { $0.completed == 1 }
        #expect(await eventually { preloader.bufferedBytes == 100_000 })
        preloader.preload(second)
        try await origin.waitForStats(pathB) { $0.completed == 1 }
        #expect(await eventually { !preloader.isPreloaded(first) })
        #expect(preloader.isPreloaded(second))
        #expect(preloader.metrics.evicted == 1)
        #expect(await eventually { preloader.bufferedBytes <= 150_000 })
    }

    @Test func upstreamDownAnswers502ToEveryAttachedTask() async throws {
        let preloader = Preloader(
            allowedHosts: [],
            upstream: NetworkUpstream(
                rewriter: NetworkRewriter(defaultRule: NetworkRewriteRule(scheme: "http", host: "127.0.0.1", port: 1))
            )
        )
        let registry = SchemeRegistry()
        try registry.register(PreloadHandler(preloader: preloader), for: "app")
        let sinks = (0..<3).map { _ in RecordingSink() }
        let request = try SchemeRequest("app://x/down")
        try await withTimeout {
            await withTaskGroup(of: Void.self) { group in
                for sink in sinks { group.addTask { await registry.handle(request, sink: sink) } }
            }
        }
        for sink in sinks {
            #expect(sink.response?.status == .badGateway)
            #expect(sink.isFinished)
        }
    }

    @Test func headAndRangeRequestsGoDirectlyToTheNetwork() async throws {
        let (origin, preloader, registry) = try setUp()
        let path = "/" + OriginServer.unique("preload-direct")
        let sink = RecordingSink()
        var fields = HTTPFields()
        fields[.range] = "bytes=0-9"
        let request = try SchemeRequest("app://x\(path)?size=100", headerFields: fields)
        try await withTimeout { await registry.handle(request, sink: sink) }
        #expect(sink.isFinished)
        #expect(preloader.recentTimings.last?.source == .direct)
        #expect(preloader.metrics.upstreamFetches == 0)
        #expect(try await origin.stats(path).requests == 1)
    }
}

/// A client whose requests never get an answer until cancelled: fetches that touch no network.
struct SilentClient: SchemeHTTPClient {
    func send(_ request: SchemeHTTPClientRequest) async throws -> SchemeHTTPClientResponse {
        try await Task.sleep(for: .seconds(3600))  // hangs until cancelled
        throw CancellationError()
    }
}

struct PreloadKeyTests {
    @Test(arguments: [
        "app://example.com/index.html",
        "APP://Example.COM/index.html",
        "app://example.com:443/index.html",
        "https://example.com/index.html",
        "https://EXAMPLE.com:443/index.html#top",
    ])
    func equivalentURLsMeetOnTheSamePreload(url: String) throws {
        let preloader = Preloader(allowedHosts: [], upstream: NetworkUpstream(client: SilentClient()))
        #expect(preloader.preload(URL(string: "app://example.com/index.html#intro")!))
        #expect(preloader.isPreloaded(URL(string: url)!))
        #expect(!preloader.preload(URL(string: url)!), "a second preload of the same URL starts nothing")
        #expect(preloader.cancelPreload(URL(string: url)!))
    }

    @Test(arguments: ["app://example.com/index.html?v=2", "app://example.com/other.html", "app://other.com/index.html"])
    func differentURLsDoNotMeet(url: String) {
        let preloader = Preloader(allowedHosts: [], upstream: NetworkUpstream(client: SilentClient()))
        preloader.preload(URL(string: "app://example.com/index.html")!)
        #expect(!preloader.isPreloaded(URL(string: url)!))
        preloader.cancelPreload(URL(string: "app://example.com/index.html")!)
    }
}
