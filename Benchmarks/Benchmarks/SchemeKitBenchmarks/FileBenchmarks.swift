import Benchmark
import Foundation
import SchemeKit
import Synchronization

/// Registers the file benchmarks:
/// - `Files/FileHandle 256MiB` vs `Files/LocalFileHandler 256MiB`: the same file read in 64 KiB
///   chunks by a plain `FileHandle` loop and streamed by the handler through a registry into a
///   sink that discards the bytes (throughput ratio and peak RSS growth).
/// - `Files/small <n>KiB`: 1, 4 and 10 KiB files through registry + handler, 1000 requests per
///   iteration on one task (the `throughput` metric is thousands of requests per second).
func fileBenchmarks() {
    let streaming = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .peakMemoryResidentDelta, .mallocCountTotal],
        warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 8)

    Benchmark("Files/FileHandle 256MiB", configuration: streaming) { benchmark in
        guard let handle = try? FileHandle(forReadingFrom: FileBenchmarkFixture.shared.largeFile) else {
            fatalError("fixture missing")
        }
        defer { try? handle.close() }
        var total = 0
        while let chunk = try? handle.read(upToCount: 64 * 1024), !chunk.isEmpty {
            total += chunk.count
        }
        precondition(total == FileBenchmarkFixture.largeSize)
        blackHole(total)
    }

    Benchmark("Files/LocalFileHandler 256MiB", configuration: streaming) { benchmark in
        let fixture = FileBenchmarkFixture.shared
        let sink = DiscardingSink()
        await fixture.registry.handle(try! SchemeRequest("app://localhost/large.bin"), sink: sink)
        precondition(sink.bytes == FileBenchmarkFixture.largeSize)
        blackHole(sink.bytes)
    }

    let small = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .syscalls],
        warmupIterations: 2, scalingFactor: .kilo, maxDuration: .seconds(5), maxIterations: 50)
    for kibibytes in [1, 4, 10] {
        Benchmark("Files/small \(kibibytes)KiB", configuration: small) { benchmark in
            let fixture = FileBenchmarkFixture.shared
            let request = try! SchemeRequest("app://localhost/small-\(kibibytes).html")
            for _ in benchmark.scaledIterations {
                let sink = DiscardingSink()
                await fixture.registry.handle(request, sink: sink)
                precondition(sink.bytes == kibibytes * 1024)
            }
        }
    }
}

/// A temporary directory with the benchmark files, created on first use.
final class FileBenchmarkFixture: Sendable {
    static let largeSize = 256 << 20
    static let shared = FileBenchmarkFixture()

    let directory: URL
    let registry = SchemeRegistry()
    var largeFile: URL { directory.appendingPathComponent("large.bin") }

    private init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("schemekit-bench-files")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let large = directory.appendingPathComponent("large.bin")
        let existing = try? FileManager.default.attributesOfItem(atPath: large.path)[.size] as? Int
        if existing != Self.largeSize {
            var block = Data(count: 1 << 20)
            block.withUnsafeMutableBytes { bytes in
                for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 7) }
            }
            var all = Data()
            all.reserveCapacity(Self.largeSize)
            for _ in 0..<256 { all.append(block) }
            try! all.write(to: large)
        }
        for kibibytes in [1, 4, 10] {
            let html = Data(repeating: UInt8(ascii: "a"), count: kibibytes * 1024)
            try! html.write(to: directory.appendingPathComponent("small-\(kibibytes).html"))
        }
        try! registry.register(LocalFileHandler(root: directory), for: "app")
    }
}

/// A sink that only counts bytes: the cheapest possible engine.
final class DiscardingSink: SchemeTaskSink {
    private let count = Atomic(0)

    var bytes: Int { count.load(ordering: .relaxed) }

    func receive(_ response: SchemeResponse) {}
    func receive(_ data: SchemeBody) { count.add(data.count, ordering: .relaxed) }
    func finish() {}
    func fail(_ error: any Error) { fatalError("benchmark request failed: \(error)") }
}
