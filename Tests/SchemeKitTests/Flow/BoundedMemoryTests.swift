import Foundation
import LoopbackTestSupport
import SchemeKit
import SchemeKitTesting
import Synchronization
import Testing

/// Memory does not grow with the size of a response: a large body through the network fallback
/// (on each client, from an origin with and without range support), a claimed preload and the
/// callback adapter, into an engine that reads at 40 MiB/s, keeps the peak resident growth of the
/// whole process within 64 MiB.
///
/// The body is 1 GiB when `SCHEMEKIT_MEMORY_TEST_BYTES=1073741824` (what `Scripts/test.sh` runs);
/// a plain `swift test` uses 256 MiB, so these tests do not take both cores for a minute and
/// starve the timing-sensitive suites running beside them. Without back-pressure either size
/// overshoots the bound several times over. Each test measures a process of its own
/// (``IsolatedProcess``): the other suites of a plain `swift test` would count otherwise.
///
/// The engines' own rows run with their traits, in their stages of `Scripts/test.sh`:
/// `BoundedMemoryWebKitGTKTests` (a page's large POST body read by a slow handler) and
/// `BoundedMemoryChromiumTests` (a large fulfil, which CDP cannot stream).
///
/// Serialized: each test measures the process's memory, so they must not overlap each other.
@Suite(.serialized)
struct BoundedMemoryTests {
    static let size =
        ProcessInfo.processInfo.environment["SCHEMEKIT_MEMORY_TEST_BYTES"].flatMap { Int($0) } ?? 256 << 20
    static let readRate = 40.0 * 1024 * 1024
    static let bound = 64 << 20

    /// A path of its own, so the origin's counters are this test's.
    func originPath(_ name: String) -> String {
        "/" + OriginServer.unique(name)
    }

    /// What one body through the network fallback cost.
    struct NetworkRun {
        /// Peak resident growth of the process, in bytes.
        var growth: Int
        /// The origin's counters for the body's path.
        var stats: OriginServer.Stats
    }

    /// ``size`` bytes through a `NetworkFallbackHandler` on `client` into an engine that reads at
    /// ``readRate``, from an origin that supports ranges (`Accept-Ranges` and an `ETag`) or ignores
    /// them. Expects the whole body, intact; returns the peak RSS growth and the origin's counters.
    func networkFallback(_ client: NetworkTestClient, originRanges: Bool) async throws -> NetworkRun {
        let origin = try OriginServer.shared()
        let handler = NetworkFallbackHandler(
            allowedHosts: [],
            upstream: origin.upstream(timeout: TestTiming.scaled(.seconds(120)), client: client.make()))
        let registry = SchemeRegistry()
        try registry.register(handler, for: "app")
        let path = originPath("gib-network-\(client.rawValue)")
        let sink = ThrottledSink(bytesPerSecond: Self.readRate)
        let probe = MemoryProbe()
        let query = "size=\(Self.size)" + (originRanges ? "&ranges=1" : "")
        try await withTimeout(TestTiming.scaled(.seconds(100))) {
            await registry.handle(try SchemeRequest("app://x\(path)?\(query)"), sink: sink)
        }
        let growth = probe.stop()
        #expect(sink.status == 200)
        #expect(sink.failure == nil)
        #expect(sink.finished)
        #expect(sink.bytes == Self.size)
        #expect(sink.mismatches == 0)
        let stats = try await origin.stats(path)
        print(
            "network fallback, \(client.rawValue), origin \(originRanges ? "with" : "without") ranges, "
                + "\(Self.size >> 20) MiB: peak RSS growth \(growth >> 20) MiB, \(stats.requests) requests, "
                + "\(stats.ranged ?? 0) ranged")
        return NetworkRun(growth: growth, stats: stats)
    }

    @Test(.timeLimit(.minutes(2)))
    func oneGibibyteThroughTheNetworkFallbackStaysWithinTheBound() async throws {
        guard try await IsolatedProcess.isInside(test: "oneGibibyteThroughTheNetworkFallbackStaysWithinTheBound") else {
            return
        }
        let run = try await networkFallback(.urlSession, originRanges: true)
        #expect(run.growth <= Self.bound, "peak RSS growth \(run.growth >> 20) MiB")
        #if canImport(FoundationNetworking)
            // The client paused: on Linux each pause is a ranged request that continues the body.
            #expect(run.stats.ranged ?? 0 > 0)
        #endif
    }

    /// URLSession from an origin that ignores `Range`: on Linux nothing can pause the transfer
    /// (swift-corelibs-foundation restarts a suspended one, libcurl reads ahead without limit), so
    /// the body queues at network speed. Recorded as a known issue there; `AsyncHTTPSchemeClient`
    /// is the answer, below.
    @Test(.timeLimit(.minutes(2)))
    func oneGibibyteThroughURLSessionFromAnOriginWithoutRanges() async throws {
        guard try await IsolatedProcess.isInside(test: "oneGibibyteThroughURLSessionFromAnOriginWithoutRanges") else {
            return
        }
        let run = try await networkFallback(.urlSession, originRanges: false)
        #if canImport(FoundationNetworking)
            withKnownIssue("URLSession on Linux cannot pause a transfer the origin cannot resume") {
                #expect(run.growth <= Self.bound, "peak RSS growth \(run.growth >> 20) MiB")
            }
        #else
            #expect(run.growth <= Self.bound, "peak RSS growth \(run.growth >> 20) MiB")
        #endif
    }

    #if AsyncHTTPClient
        /// AsyncHTTPClient from an origin that ignores `Range`: NIO reads as the engine reads. One
        /// request, and the bound holds.
        @Test(.timeLimit(.minutes(2)))
        func oneGibibyteThroughAsyncHTTPClientFromAnOriginWithoutRanges() async throws {
            guard
                try await IsolatedProcess.isInside(test: "oneGibibyteThroughAsyncHTTPClientFromAnOriginWithoutRanges")
            else { return }
            let run = try await networkFallback(.asyncHTTPClient, originRanges: false)
            #expect(run.growth <= Self.bound, "peak RSS growth \(run.growth >> 20) MiB")
            #expect(run.stats.requests == 1)
            #expect(run.stats.completed == 1)
        }

        /// AsyncHTTPClient from an origin that supports ranges: still one request, no `Range` asked.
        @Test(.timeLimit(.minutes(2)))
        func oneGibibyteThroughAsyncHTTPClientFromARangeOrigin() async throws {
            guard try await IsolatedProcess.isInside(test: "oneGibibyteThroughAsyncHTTPClientFromARangeOrigin") else {
                return
            }
            let run = try await networkFallback(.asyncHTTPClient, originRanges: true)
            #expect(run.growth <= Self.bound, "peak RSS growth \(run.growth >> 20) MiB")
            #expect(run.stats.requests == 1)
            #expect(run.stats.ranged == 0)
        }
    #endif

    @Test(.timeLimit(.minutes(2)))
    func aClaimedOneGibibytePreloadStaysWithinTheBound() async throws {
        guard try await IsolatedProcess.isInside(test: "aClaimedOneGibibytePreloadStaysWithinTheBound") else { return }
        let origin = try OriginServer.shared()
        let preloader = Preloader(
            allowedHosts: [], upstream: origin.upstream(timeout: TestTiming.scaled(.seconds(120))))
        let registry = SchemeRegistry()
        try registry.register(PreloadHandler(preloader: preloader), for: "app")
        let path = originPath("gib-preload")
        let url = "app://x\(path)?size=\(Self.size)&ranges=1"
        let probe = MemoryProbe()
        #expect(preloader.preload(URL(string: url)!))
        // The unclaimed preload fills its window, then its upstream reader waits for its task: the
        // buffer cannot grow while it does.
        #expect(await eventually { preloader.pausedFetches == 1 })
        #expect(preloader.bufferedBytes >= preloader.configuration.fetchBufferLimit)
        #expect(preloader.bufferedBytes <= preloader.configuration.fetchBufferLimit + (1 << 20))
        let sink = ThrottledSink(bytesPerSecond: Self.readRate)
        try await withTimeout(TestTiming.scaled(.seconds(100))) {
            await registry.handle(try SchemeRequest(url), sink: sink)
        }
        let growth = probe.stop()
        #expect(preloader.metrics.preloadsClaimed == 1)
        #expect(sink.status == 200)
        #expect(sink.failure == nil)
        #expect(sink.finished)
        #expect(sink.bytes == Self.size)
        #expect(sink.mismatches == 0)
        #expect(growth <= Self.bound, "peak RSS growth \(growth >> 20) MiB")
        print("claimed preload, \(Self.size >> 20) MiB: peak RSS growth \(growth >> 20) MiB")
    }

    /// A `WKURLSchemeHandler`-style producer on its own thread, writing 64 KiB chunks as fast as
    /// `didReceive` returns.
    final class FloodingHandler: CallbackSchemeHandler {
        let size: Int
        let maximumQueued = Mutex(0)

        init(size: Int) { self.size = size }

        func start(_ task: CallbackSchemeTask) {
            let size = self.size
            Thread { [self] in
                task.didReceive(SchemeResponse(status: .ok, mimeType: "application/octet-stream"))
                var sent = 0
                let chunk = 64 << 10
                let tile = OriginServer.pattern(count: chunk + 251)
                while sent < size, !task.isStopped {
                    // A new buffer each time (a copy, every page touched): queued chunks cost memory.
                    let start = sent % 251
                    let data = Data(tile[start..<(start + min(chunk, size - sent))])
                    task.didReceive(data)
                    sent += data.count
                    let queued = task.queuedBytes
                    maximumQueued.withLock { $0 = max($0, queued) }
                }
                task.didFinish()
            }.start()
        }

        func stop(_ task: CallbackSchemeTask) {}
    }

    @Test(.timeLimit(.minutes(2)))
    func oneGibibyteThroughTheCallbackAdapterStaysWithinTheBound() async throws {
        guard try await IsolatedProcess.isInside(test: "oneGibibyteThroughTheCallbackAdapterStaysWithinTheBound") else {
            return
        }
        let size = Self.size
        let handler = FloodingHandler(size: size)
        let registry = SchemeRegistry()
        try registry.register(CallbackHandlerAdapter(handler), for: "app")
        let sink = ThrottledSink(bytesPerSecond: Self.readRate)
        let probe = MemoryProbe()
        try await withTimeout(TestTiming.scaled(.seconds(100))) {
            await registry.handle(try SchemeRequest("app://x/flood"), sink: sink)
        }
        let growth = probe.stop()
        #expect(sink.finished)
        #expect(sink.bytes == size)
        #expect(sink.mismatches == 0)
        #expect(handler.maximumQueued.withLock { $0 } <= (1 << 20) + (64 << 10))
        #expect(growth <= Self.bound, "peak RSS growth \(growth >> 20) MiB")
        print("callback adapter, \(Self.size >> 20) MiB: peak RSS growth \(growth >> 20) MiB")
    }
}
