import Benchmark
import Foundation
import SchemeKit

/// Registers the core benchmarks: the per-request cost of registry dispatch and the guarded
/// lifecycle, against calling the same handler directly into a bare sink.
///
/// Each iteration answers one request with a 1 KB in-memory response (head, one body write,
/// finish). Run: `swift package --disable-sandbox benchmark --filter "Core"`.
func coreBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(3)
    )
    let handler = InMemoryHandler(body: Data(repeating: 0x61, count: 1024))
    let registry = SchemeRegistry()
    try! registry.register(handler, for: "app")
    let request = try! SchemeRequest("app://localhost/index.html")
    let sink = BareSink()

    // The fully specialised direct call: the optimiser sees every type and inlines it all, so
    // this is the floor (a few ns), not what an engine adapter can do.
    Benchmark("Core: direct handler call, specialised, bare sink (1 KB)", configuration: configuration) { benchmark in
        let writer = BareWriter(sink: sink)
        for _ in benchmark.scaledIterations {
            blackHole(try await handler.handle(request, writer: writer))
        }
    }

    // The direct call as an engine adapter without SchemeKit makes it: the handler and the sink
    // held as existentials (`any SchemeHandler`, `any SchemeTaskSink`), a bare writer, no guard.
    Benchmark("Core: direct handler call, existentials, bare sink (1 KB)", configuration: configuration) { benchmark in
        let anyHandler = registry.handler(for: request)!
        let writer = ExistentialWriter(sink: opaque(sink))
        for _ in benchmark.scaledIterations {
            blackHole(try await anyHandler.handle(request, writer: writer))
        }
    }

    Benchmark("Core: registry dispatch + guarded lifecycle (1 KB)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            await registry.handle(request, sink: sink)
        }
    }

    Benchmark("Core: registry dispatch + guarded lifecycle, task(for:) + run (1 KB)", configuration: configuration) {
        benchmark in
        for _ in benchmark.scaledIterations {
            let task = registry.task(for: request, sink: sink)
            await task.run()
            blackHole(task)
        }
    }

    Benchmark("Core: URL parsing + registry dispatch + guarded lifecycle (1 KB)", configuration: configuration) {
        benchmark in
        for _ in benchmark.scaledIterations {
            await registry.handle(try SchemeRequest("app://localhost/index.html"), sink: sink)
        }
    }

    Benchmark("Core: URL parsing alone", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try SchemeRequest("app://localhost/index.html"))
        }
    }
}

/// Hides a value's concrete type from the optimiser.
@inline(never)
func opaque(_ sink: some SchemeTaskSink) -> any SchemeTaskSink { sink }

/// A handler answering every request with the same bytes: head, one write, finish.
struct InMemoryHandler: SchemeHandler {
    let head: SchemeResponse
    let body: Data

    init(body: Data) {
        self.body = body
        self.head = SchemeResponse(
            mimeType: "text/html", textEncodingName: "utf-8", expectedContentLength: Int64(body.count))
    }

    func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
        try await writer.writeHead(head)
        try await writer.write(body)
        try await writer.finish()
        return .handled
    }
}

/// An engine sink that does nothing but keep the optimiser from removing the calls.
struct BareSink: SchemeTaskSink {
    func receive(_ response: SchemeResponse) { blackHole(response) }
    func receive(_ data: SchemeBody) { blackHole(data) }
    func finish() {}
    func fail(_ error: any Error) { blackHole(error) }
}

/// A writer with no guard at all: each call goes straight to the sink.
struct BareWriter<Sink: SchemeTaskSink>: SchemeResponseWriter {
    let sink: Sink

    func writeHead(_ response: SchemeResponse) async throws { sink.receive(response) }
    func write(_ data: SchemeBody) async throws { sink.receive(data) }
    func finish() async throws { sink.finish() }
    func fail(_ error: any Error) async throws { sink.fail(error) }
    func makeBody<Failure: Error>(
        count: Int, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) -> SchemeBody {
        try MallocBodyAllocator().makeBody(count: count, fill: fill)
    }
}

/// A writer with no guard, calling the sink through its existential.
struct ExistentialWriter: SchemeResponseWriter {
    let sink: any SchemeTaskSink

    func writeHead(_ response: SchemeResponse) async throws { sink.receive(response) }
    func write(_ data: SchemeBody) async throws { sink.receive(data) }
    func finish() async throws { sink.finish() }
    func fail(_ error: any Error) async throws { sink.fail(error) }
    func makeBody<Failure: Error>(
        count: Int, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) -> SchemeBody {
        try MallocBodyAllocator().makeBody(count: count, fill: fill)
    }
}
