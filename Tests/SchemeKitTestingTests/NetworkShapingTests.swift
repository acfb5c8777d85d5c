import Foundation
import SchemeKit
import SchemeKitTesting
import Testing

/// Latency, bandwidth and failures on any handler, timed on an `ImmediateClock`: exact pacing,
/// no real sleeping, and stops that end a wait at once.
struct NetworkShapingTests {
    @Test func aFourMebibyteBodyKeepsItsRateWithinTenPercent() async throws {
        let clock = ImmediateClock()
        let size = 4 << 20
        let rate = 256_000
        let observer = DeliveryObserver(clock: clock)
        let handler = observer.observing(
            StaticHandler(Data(count: size), chunkSize: 1 << 20).shaped(
                NetworkConditions(bytesPerSecond: rate), clock: clock))
        // Nothing really sleeps: the 16 s are the clock's (a wall-clock bound here would only
        // measure how busy the machine is).
        let result = try await ScriptedEngine(serving: handler).run("app://localhost/big.bin")
        #expect(result.body.count == size)

        let expected = Double(size) / Double(rate)
        let slept = clock.totalSlept.inSeconds
        #expect(abs(slept - expected) <= expected * 0.1)
        let deliveries = observer.deliveries
        #expect(deliveries.count > 100)
        // The rate over the body so far, at every delivery after the first second, and in every
        // two-second window of the transfer.
        let target = Double(rate)
        for delivery in deliveries where delivery.time.inSeconds >= 1 {
            let measured = Double(delivery.bytes) / delivery.time.inSeconds
            #expect(abs(measured - target) <= target * 0.1, "\(delivery)")
        }
        for second in stride(from: 2, through: Int(expected), by: 2) {
            let before = deliveries.last { $0.time.inSeconds <= Double(second - 2) }?.bytes ?? 0
            let after = deliveries.last { $0.time.inSeconds <= Double(second) }?.bytes ?? 0
            let delivered = Double(after - before)
            let target = 2 * Double(rate)
            #expect(abs(delivered - target) <= target * 0.1, "second \(second)")
        }
    }

    @Test func modifiersChainOnAnyHandler() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data(count: 512_000).write(to: directory.appending("file.bin"))
        let clock = ImmediateClock()
        let slow = LocalFileHandler(root: directory.url)
            .shaped(NetworkConditions(latency: .fixed(.milliseconds(80))), clock: clock)
            .shaped(NetworkConditions(bytesPerSecond: 256_000), clock: clock)
        let result = try await ScriptedEngine(serving: slow).run("app://localhost/file.bin")
        #expect(result.body.count == 512_000)
        #expect(clock.totalSlept == .milliseconds(2080))
        #expect(clock.sleeps.first == .milliseconds(80))
    }

    @Test func aLatencyDistributionIsSeeded() async throws {
        func sleeps(seed: UInt64) async throws -> [Duration] {
            let clock = ImmediateClock()
            let handler = StaticHandler("x").shaped(
                NetworkConditions(latency: .uniform(.milliseconds(50)...(.milliseconds(150)), seed: seed)), clock: clock
            )
            let engine = try ScriptedEngine(serving: handler)
            for _ in 0..<20 { _ = try await engine.run("app://localhost/") }
            return clock.sleeps
        }
        let first = try await sleeps(seed: 42)
        #expect(first.count == 20)
        #expect(first.allSatisfy { (.milliseconds(50)...(.milliseconds(150))).contains($0) })
        #expect(Set(first).count > 10)
        #expect(try await sleeps(seed: 42) == first)
        #expect(try await sleeps(seed: 43) != first)

        var generator = SystemRandomNumberGenerator()
        let normal = NetworkLatency.normal(mean: .milliseconds(10), standardDeviation: .milliseconds(50), seed: 1)
        for _ in 0..<1000 { #expect(normal.sample(using: &generator) >= .zero) }
    }

    @Test func aFailureCutsTheBodyAtTheChosenByte() async throws {
        let handler = StaticHandler(Data(count: 4096), chunkSize: 300).shaped(NetworkConditions(failure: .atByte(1000)))
        let result = try await ScriptedEngine(serving: handler).run("app://localhost/")
        #expect(result.status == .ok)
        #expect(result.body.count == 1000)
        #expect(result.failure == "connection lost after 1000 bytes (injected)")
        #expect(result.violations.isEmpty)

        let atHead = try await ScriptedEngine(
            serving: StaticHandler("abc").shaped(NetworkConditions(failure: .atByte(0)))
        ).run("app://localhost/")
        #expect(atHead.status == .ok && atHead.body.isEmpty)
        #expect(atHead.failure == "connection lost after 0 bytes (injected)")
        let tooLate = try await ScriptedEngine(
            serving: StaticHandler("abc").shaped(NetworkConditions(failure: .atByte(10)))
        ).run(
            "app://localhost/")
        #expect(tooLate.isFinished && tooLate.bodyString == "abc")
    }

    @Test func aStopDuringTheDelayEndsItAtOnceWithNoWrite() async throws {
        let inner = CountingHandler(StaticHandler("late"))
        let engine = try ScriptedEngine(
            serving: inner.shaped(NetworkConditions(latency: .fixed(.seconds(3600)))), timeout: .milliseconds(100))
        let started = ContinuousClock.now
        let result = try await engine.run("app://localhost/")
        #expect(ContinuousClock.now - started < .seconds(60))  // not the hour of the delay
        #expect(result.timedOut && result.wasStopped)
        #expect(result.events.map(\.description) == ["stopped"])
        #expect(inner.calls == 0)
        #expect(result.metrics.writesDroppedAfterStop == 0)
    }

    @Test func aStopDuringTheThrottleEndsItAtOnceWithNoWriteAfterIt() async throws {
        // At a stop point: the engine stops the task inside the delivery of the chunk that reaches
        // 3000 bytes; the next pacing wait throws and nothing more is written.
        let clock = ImmediateClock()
        let shaped = StaticHandler(Data(count: 10_000)).shaped(
            NetworkConditions(bytesPerSecond: 1_000, chunkSize: 1_000), clock: clock)
        let stopped = try await ScriptedEngine(serving: shaped).run("app://localhost/", stoppingAt: .afterBytes(3_000))
        #expect(stopped.body.count == 3_000)
        #expect(stopped.wasStopped)
        #expect(stopped.violations.isEmpty)
        #expect(stopped.metrics.writesDroppedAfterStop == 0)
        #expect(clock.sleeps == [.seconds(1), .seconds(1), .seconds(1)])

        // In the middle of a real wait: 1 byte per second, stopped after 100 ms.
        let slow = StaticHandler(Data(count: 10)).shaped(NetworkConditions(bytesPerSecond: 1, chunkSize: 1))
        let started = ContinuousClock.now
        let result = try await ScriptedEngine(serving: slow, timeout: .milliseconds(100)).run("app://localhost/")
        #expect(ContinuousClock.now - started < .seconds(60))  // not the hour of the delay
        #expect(result.wasStopped)
        #expect(result.body.isEmpty)
        #expect(result.events.map(\.description) == ["head(200)", "stopped"])
        #expect(result.metrics.writesDroppedAfterStop == 0)
    }
}

/// Wraps a handler and notes, after each body write reached the engine, the clock's time and the
/// bytes delivered so far.
final class DeliveryObserver: Sendable {
    struct Delivery: Sendable, CustomStringConvertible {
        var time: Duration
        var bytes: Int
        var description: String { "\(bytes) bytes at \(time)" }
    }

    let clock: ImmediateClock
    private let state = Locked<[Delivery]>([])

    init(clock: ImmediateClock) { self.clock = clock }

    var deliveries: [Delivery] { state.withLock { $0 } }

    func observing(_ handler: some SchemeHandler) -> ClosureHandler {
        ClosureHandler { request, writer in
            try await self.run(handler, request, writer)
        }
    }

    /// Runs `handler` with `writer` wrapped (a generic function, so the writer's type is opened).
    private func run(
        _ handler: some SchemeHandler, _ request: SchemeRequest, _ writer: some SchemeResponseWriter
    ) async throws -> SchemeHandlerOutcome {
        try await handler.handle(request, writer: ObservingWriter(base: writer, observer: self))
    }

    func record(_ count: Int) {
        let time = clock.now.offset
        state.withLock { $0.append(Delivery(time: time, bytes: ($0.last?.bytes ?? 0) + count)) }
    }
}

/// The writer behind ``DeliveryObserver``.
struct ObservingWriter<Base: SchemeResponseWriter>: SchemeForwardingWriter {
    let base: Base
    let observer: DeliveryObserver

    func write(_ body: SchemeBody) async throws {
        try await base.write(body)
        observer.record(body.count)
    }
}

extension Duration {
    /// The duration in seconds.
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
