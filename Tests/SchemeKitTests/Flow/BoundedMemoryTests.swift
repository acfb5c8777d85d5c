import Foundation
import SchemeKit
import SchemeKitTesting
import Synchronization
import Testing

/// Memory does not grow with the size of a response: a large body through the network fallback,
/// a claimed preload and the callback adapter, into an engine that reads at 40 MiB/s, keeps the
/// peak resident growth of the whole process within 64 MiB.
///
/// The body is 1 GiB when `SCHEMEKIT_MEMORY_TEST_BYTES=1073741824` (what `Scripts/test.sh` runs);
/// a plain `swift test` uses 256 MiB, so these tests do not take both cores for a minute and
/// starve the timing-sensitive suites running beside them. Without back-pressure either size
/// overshoots the bound several times over. Each test measures a process of its own
/// (``IsolatedProcess``): the other suites of a plain `swift test` would count otherwise.
///
/// Serialized: each test measures the process's memory, so they must not overlap each other.
@Suite(.serialized)
struct BoundedMemoryTests {
    static let size =
        ProcessInfo.processInfo.environment["SCHEMEKIT_MEMORY_TEST_BYTES"].flatMap { Int($0) } ?? 256 << 20
    static let readRate = 40.0 * 1024 * 1024
    static let bound = 64 << 20

    /// `size=` bodies with `Accept-Ranges` and an `ETag`, so the client can pause on Linux.
    func originPath(_ name: String) -> String {
        "/" + OriginServer.unique(name)
    }

    @Test(.timeLimit(.minutes(2)))
    func oneGibibyteThroughTheNetworkFallbackStaysWithinTheBound() async throws {
        guard try await IsolatedProcess.isInside(test: "oneGibibyteThroughTheNetworkFallbackStaysWithinTheBound") else {
            return
        }
        let origin = try OriginServer.shared()
        let handler = NetworkFallbackHandler(upstream: origin.upstream(timeout: TestTiming.scaled(.seconds(120))))
        let registry = SchemeRegistry()
        try registry.register(handler, for: "app")
        let path = originPath("gib-network")
        let sink = ThrottledSink(bytesPerSecond: Self.readRate)
        let probe = MemoryProbe()
        try await withTimeout(TestTiming.scaled(.seconds(100))) {
            await registry.handle(try SchemeRequest("app://x\(path)?size=\(Self.size)&ranges=1"), sink: sink)
        }
        let growth = probe.stop()
        #expect(sink.status == 200)
        #expect(sink.failure == nil)
        #expect(sink.finished)
        #expect(sink.bytes == Self.size)
        #expect(sink.mismatches == 0)
        #expect(growth <= Self.bound, "peak RSS growth \(growth >> 20) MiB")
        // The client paused: on Linux each pause is a ranged request that continues the body.
        let stats = try await origin.stats(path)
        #expect(stats.ranged ?? 0 > 0)
        print(
            "network fallback, \(Self.size >> 20) MiB: peak RSS growth \(growth >> 20) MiB, \(stats.requests) requests")
    }

    @Test(.timeLimit(.minutes(2)))
    func aClaimedOneGibibytePreloadStaysWithinTheBound() async throws {
        guard try await IsolatedProcess.isInside(test: "aClaimedOneGibibytePreloadStaysWithinTheBound") else { return }
        let origin = try OriginServer.shared()
        let preloader = Preloader(upstream: origin.upstream(timeout: TestTiming.scaled(.seconds(120))))
        let registry = SchemeRegistry()
        try registry.register(PreloadHandler(preloader: preloader), for: "app")
        let path = originPath("gib-preload")
        let url = "app://x\(path)?size=\(Self.size)&ranges=1"
        let probe = MemoryProbe()
        #expect(preloader.preload(URL(string: url)!))
        // The unclaimed preload fills its window, then waits for its task.
        #expect(await eventually { preloader.bufferedBytes >= preloader.configuration.fetchBufferLimit })
        try await Task.sleep(for: .milliseconds(200))
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
