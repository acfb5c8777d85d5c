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
    let streamed = StreamingHandler(chunk: Data(repeating: 0x62, count: 4096), count: 16)
    let suspending = SuspendingHandler(body: Data(repeating: 0x63, count: 1024))
    let registry = SchemeRegistry()
    try! registry.register(handler, for: "app")
    try! registry.register(streamed, for: "app", pathPrefix: "/streamed")
    try! registry.register(suspending, for: "app", pathPrefix: "/suspending")
    let request = try! SchemeRequest("app://localhost/index.html")
    let streamedRequest = try! SchemeRequest("app://localhost/streamed/64k")
    let suspendingRequest = try! SchemeRequest("app://localhost/suspending/x")
    let sink = BareSink()

    // The direct call as an engine adapter without SchemeKit makes it: the handler held as an
    // existential (`any SchemeHandler`) and the sink too (`any SchemeTaskSink`), the handler's
    // answer written by a bare writer, no guard. The guarded rows beside each do the same request
    // through the registry: route, guarded lifecycle, delivery, counters.
    func direct(_ request: SchemeRequest, _ anyHandler: any SchemeHandler) -> @Sendable () async throws -> Void {
        let writer = ExistentialWriter(sink: opaque(sink))
        return { _ = try await anyHandler.answer(to: request).perform(request: request, with: writer) }
    }

    let cases: [(String, SchemeRequest, any SchemeHandler)] = [
        ("1 KB answer known at once", request, handler), ("64 KiB written in 16 chunks", streamedRequest, streamed),
        ("1 KB after one suspension", suspendingRequest, suspending),
    ]
    for (label, request, routed) in cases {
        let call = direct(request, routed)
        Benchmark("Core: \(label), direct call", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { try await call() }
        }
        Benchmark("Core: \(label), registry + guarded lifecycle", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { await registry.handle(request, sink: sink) }
        }
    }

    // The fully specialised direct call: the optimiser sees every type and inlines it all, so
    // this is the floor (a few ns), not what an engine adapter can do.
    Benchmark("Core: 1 KB answer known at once, direct call, specialised", configuration: configuration) {
        benchmark in
        let writer = BareWriter(sink: sink)
        for _ in benchmark.scaledIterations {
            blackHole(try await handler.answer(to: request).perform(request: request, with: writer))
        }
    }

    Benchmark("Core: URL parsing + registry + guarded lifecycle (1 KB)", configuration: configuration) {
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

/// A handler answering every request with the same bytes, known at once.
struct InMemoryHandler: SchemeHandler {
    let head: SchemeResponse
    let body: Data

    init(body: Data) {
        self.body = body
        self.head = SchemeResponse(
            mimeType: "text/html", textEncodingName: "utf-8", expectedContentLength: Int64(body.count))
    }

    func answer(to request: SchemeRequest) -> SchemeAnswer {
        .response(SchemeCollectedResponse(head: head, body: body))
    }
}

/// A handler writing its body over time: `count` writes of `chunk`.
struct StreamingHandler: SchemeHandler {
    let head: SchemeResponse
    let chunk: SchemeBody
    let count: Int

    init(chunk: Data, count: Int) {
        self.chunk = SchemeBody(chunk)
        self.count = count
        self.head = SchemeResponse(
            mimeType: "application/octet-stream", expectedContentLength: Int64(chunk.count * count))
    }

    func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
        try await writer.writeHead(head)
        for _ in 0..<count { try await writer.write(chunk) }
        try await writer.finish()
        return .handled
    }
}

/// A handler that suspends once (as one that awaits anything does) before it writes.
struct SuspendingHandler: SchemeHandler {
    let head: SchemeResponse
    let body: Data

    init(body: Data) {
        self.body = body
        self.head = SchemeResponse(mimeType: "text/plain", expectedContentLength: Int64(body.count))
    }

    func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
        await Task.yield()
        try await writer.respond(head, body: body)
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
