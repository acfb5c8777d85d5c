import Benchmark
import Foundation
import SchemeKit

/// A sink that drops everything: measures the handler and the guarded task, not an engine.
private struct CacheDiscardingSink: SchemeTaskSink {
    func receive(_ response: SchemeResponse) {}
    func receive(_ data: SchemeBody) {}
    func finish() {}
    func fail(_ error: any Error) {}
}

/// Registers the cache benchmarks: memory-hit and disk-hit latency for a 50 KiB image, through
/// `ImageCache.get` and through a registry with an `ImageCacheHandler`.
func cacheBenchmarks() {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("schemekit-cache-bench-\(ProcessInfo.processInfo.processIdentifier)")
    var generator = SystemRandomNumberGenerator()
    let image = Data((0..<50 * 1024).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let url = URL(string: "https://cdn.example/images/photo.jpg")!
    let key = ImageCacheKey(url: url)

    // Memory hits: the default memory tier.
    let memoryCache = ImageCache(disk: nil)
    memoryCache.put(image, mimeType: "image/jpeg", forKey: key)
    // Disk hits: a memory tier that keeps nothing, so every lookup reads, verifies and decodes the file.
    let diskCache = ImageCache(
        memory: .init(countLimit: 0), disk: .init(directory: directory.appendingPathComponent("disk")))
    diskCache.put(image, mimeType: "image/jpeg", forKey: key)

    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        maxDuration: .seconds(3),
        maxIterations: 1_000_000
    )
    let teardown: Benchmark.BenchmarkTeardownHook = {
        try? FileManager.default.removeItem(at: directory)
    }

    Benchmark("ImageCache.get memory hit, 50 KiB", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(memoryCache.get(forKey: key))
        }
    }

    Benchmark("ImageCache.get disk hit, 50 KiB", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(diskCache.get(forKey: key))
        }
    }

    let request = try! SchemeRequest("app://cdn.example/images/photo.jpg")
    let memoryRegistry = SchemeRegistry()
    try! memoryRegistry.register(ImageCacheHandler(cache: memoryCache), for: "app")
    let diskRegistry = SchemeRegistry()
    try! diskRegistry.register(ImageCacheHandler(cache: diskCache), for: "app")

    Benchmark("Registry + ImageCacheHandler memory hit, 50 KiB", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            await memoryRegistry.handle(request, sink: CacheDiscardingSink())
        }
    }

    Benchmark(
        "Registry + ImageCacheHandler disk hit, 50 KiB", configuration: configuration,
        closure: { benchmark in
            for _ in benchmark.scaledIterations {
                await diskRegistry.handle(request, sink: CacheDiscardingSink())
            }
        }, teardown: teardown)
}
