import Foundation
import LoopbackTestSupport
import SchemeKit
import SchemeKitTesting
import SchemeKitWKWebViewStandIn
import Synchronization
import Testing
import WebKitStandIn

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `POST` bodies as WebKit gives them: through `httpBodyStream` (never `httpBody`: cordova-ios#1074),
/// read as the handler asks, up to the adapter's limit, past which the page gets 413.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct WKWebViewRequestBodyTests {
    /// An echo handler: answers with the body it read.
    static func echo(limit: Int = .max) -> ClosureHandler {
        ClosureHandler(methods: [.post]) { request, writer in
            let body = try await request.body.collect(upTo: limit)
            try await writer.respond(.ok, body: body)
            return .handled
        }
    }

    /// A 3 MiB body through `httpBodyStream` reaches the handler whole, in order.
    @Test func aPostBodyThroughHTTPBodyStreamReachesTheHandler() async throws {
        let registry = SchemeRegistry()
        try registry.register(Self.echo(), for: "app")
        let engine = try ScriptedWebKit(registry: registry)
        let body = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ ($0 >> 11)) })
        let task = engine.start(
            ScriptedWebKit.request(
                "app://localhost/echo", method: "POST", headers: ["Content-Type": "application/octet-stream"],
                bodyStream: InputStream(data: body)))
        await task.waitForEnd()
        #expect(task.status == 200)
        #expect(task.body == body)
        #expect(task.violations.isEmpty)
    }

    /// The stream is read as the handler asks: a handler that takes one chunk and waits has had at
    /// most one 64 KiB read made for it (nothing is read ahead).
    @Test func theBodyStreamIsReadOnlyAsTheHandlerAsks() async throws {
        let gate = Gate()
        let taken = Locked(0)
        let registry = SchemeRegistry()
        try registry.register(
            ClosureHandler(methods: [.post]) { request, writer in
                var iterator = request.body.makeAsyncIterator()
                let first = try await iterator.next()
                taken.withLock { $0 = first?.count ?? 0 }
                await gate.wait()
                var total = first?.count ?? 0
                while let chunk = try await iterator.next() { total += chunk.count }
                try await writer.respond(.ok, body: Data("\(total)".utf8))
                return .handled
            }, for: "app")
        let engine = try ScriptedWebKit(registry: registry)
        let stream = CountingInputStream(size: 4 << 20)
        let task = engine.start(ScriptedWebKit.request("app://localhost/up", method: "POST", bodyStream: stream))
        #expect(await eventually { @Sendable in taken.withLock { $0 } > 0 })
        #expect(stream.bytesRead == 64 << 10)
        gate.open()
        await task.waitForEnd()
        #expect(String(decoding: task.body, as: UTF8.self) == "\(4 << 20)")
        #expect(task.violations.isEmpty)
    }

    /// Past `maximumRequestBodySize`, the handler's read throws and the page gets 413.
    @Test func aStreamedBodyOverTheLimitIsAnswered413() async throws {
        let registry = SchemeRegistry()
        try registry.register(Self.echo(), for: "app")
        let engine = try ScriptedWebKit(
            registry: registry, options: WKSchemeAdapterOptions(maximumRequestBodySize: 256 << 10))
        let stream = CountingInputStream(size: 8 << 20)
        let task = engine.start(ScriptedWebKit.request("app://localhost/echo", method: "POST", bodyStream: stream))
        await task.waitForEnd()
        #expect(task.status == 413)
        #expect(task.events.last == .finish)
        #expect(stream.bytesRead <= (256 << 10) + (64 << 10))
        #expect(task.violations.isEmpty)
    }

    /// A `Content-Length` or an `httpBody` over the limit is answered 413 at once, with no handler.
    @Test func aDeclaredOrInMemoryBodyOverTheLimitIsAnswered413AtOnce() async throws {
        let ledger = HandlerLedger()
        let registry = SchemeRegistry()
        try registry.register(
            ClosureHandler(methods: [.post]) { _, _ in try await ledger.run { .passed } }, for: "app")
        let engine = try ScriptedWebKit(
            registry: registry, options: WKSchemeAdapterOptions(maximumRequestBodySize: 1024))
        let declared = engine.start(
            ScriptedWebKit.request(
                "app://localhost/up", method: "POST", headers: ["Content-Length": "4096"],
                bodyStream: CountingInputStream(size: 4096)))
        let inMemory = engine.start(
            ScriptedWebKit.request("app://localhost/up", method: "POST", body: Data(count: 4096)))
        for task in [declared, inMemory] {
            #expect(task.isCompleted)
            #expect(task.status == 413)
            #expect(task.violations.isEmpty)
        }
        #expect(ledger.started == 0)
    }

    /// A handler's own smaller limit (`collect(upTo:)`) also answers 413.
    @Test func aHandlersOwnLimitIsAnswered413() async throws {
        let registry = SchemeRegistry()
        try registry.register(Self.echo(limit: 1000), for: "app")
        let engine = try ScriptedWebKit(registry: registry)
        let task = engine.start(
            ScriptedWebKit.request("app://localhost/echo", method: "POST", bodyStream: CountingInputStream(size: 5000)))
        await task.waitForEnd()
        #expect(task.status == 413)
        #expect(task.violations.isEmpty)
    }
}

/// An input stream of `size` bytes that counts what was read from it.
final class CountingInputStream: InputStream {
    private let size: Int
    private let read = Locked(0)
    private var status = Stream.Status.notOpen

    /// Bytes read so far.
    var bytesRead: Int { read.withLock { $0 } }

    init(size: Int) {
        self.size = size
        super.init(data: Data())
    }

    override func open() { status = .open }
    override func close() { status = .closed }
    override var streamStatus: Stream.Status { status }
    override var hasBytesAvailable: Bool { bytesRead < size }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        read.withLock { done in
            let count = min(length, size - done)
            for index in 0..<count { buffer[index] = UInt8(truncatingIfNeeded: done + index) }
            done += count
            return count
        }
    }
}
