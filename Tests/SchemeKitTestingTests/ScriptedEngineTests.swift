import Dispatch
import Foundation
import SchemeKit
import SchemeKitTesting
import Testing

struct ScriptedEngineTests {
    static let body = Data((0..<4096).map { UInt8($0 % 251) })

    struct Expectation: Sendable, CustomTestStringConvertible {
        var point: StopPoint
        var events: [String]
        var stopped: Bool
        var bodyBytes: Int
        var testDescription: String { point.description }
    }

    @Test(arguments: [
        Expectation(
            point: .never, events: ["head(200)", "data(1024)", "data(1024)", "data(1024)", "data(1024)", "finish"],
            stopped: false, bodyBytes: 4096),
        Expectation(point: .beforeStart, events: ["stopped"], stopped: true, bodyBytes: 0),
        Expectation(point: .beforeHead, events: ["stopped"], stopped: true, bodyBytes: 0),
        Expectation(point: .afterHead, events: ["head(200)", "stopped"], stopped: true, bodyBytes: 0),
        Expectation(point: .afterBytes(0), events: ["head(200)", "stopped"], stopped: true, bodyBytes: 0),
        Expectation(
            point: .afterBytes(1), events: ["head(200)", "data(1024)", "stopped"], stopped: true, bodyBytes: 1024),
        Expectation(
            point: .afterBytes(2048), events: ["head(200)", "data(1024)", "data(1024)", "stopped"], stopped: true,
            bodyBytes: 2048),
        Expectation(
            point: .afterBytes(10_000),
            events: ["head(200)", "data(1024)", "data(1024)", "data(1024)", "data(1024)", "finish"], stopped: false,
            bodyBytes: 4096),
        Expectation(
            point: .afterFinish,
            events: ["head(200)", "data(1024)", "data(1024)", "data(1024)", "data(1024)", "finish"], stopped: false,
            bodyBytes: 4096),
    ])
    func stopPointsAreExact(_ expected: Expectation) async throws {
        for executor in [nil, DispatchQueue(label: "main") as (any SchemeDeliveryQueue)?] {
            let handler = CountingHandler(StaticHandler(Self.body, chunkSize: 1024))
            let engine = try ScriptedEngine(serving: handler, deliveryQueue: executor)
            let result = try await engine.run("app://localhost/file.bin", stoppingAt: expected.point)
            #expect(result.events.map(\.description) == expected.events)
            #expect(result.wasStopped == expected.stopped)
            #expect(result.body == Self.body.prefix(expected.bodyBytes))
            #expect(result.violations.isEmpty)
            #expect(!result.timedOut)
            #expect(result.metrics.stopped == (expected.stopped ? 1 : 0))
            #expect(result.metrics.finished == (expected.stopped ? 0 : 1))
            #expect(result.metrics.live == 0)
            #expect(handler.calls == (expected.point == .beforeStart ? 0 : 1))
            #expect(handler.inFlight == 0)
            if expected.stopped, expected.point != .beforeStart {
                // The handler's next write after the stop threw; it was cancelled.
                #expect(handler.cancelled == 1)
                #expect(result.metrics.writesDroppedAfterStop == 1)
            }
        }
    }

    @Test func timestampsAreInOrder() async throws {
        let result = try await ScriptedEngine(serving: StaticHandler(Self.body, chunkSize: 100)).run("app://h/")
        let times = result.recording.records.map(\.time)
        #expect(times == times.sorted())
        #expect(times.count == 43)
    }

    @Test func aHangingHandlerIsStoppedAtTheTimeout() async throws {
        let hanging = HangingHandler()
        let engine = try ScriptedEngine(serving: hanging, timeout: .milliseconds(20))
        let result = try await engine.run("app://h/")
        #expect(result.timedOut)
        #expect(result.wasStopped)
        #expect(hanging.started == 1)
        #expect(hanging.cancellations == 1)
        #expect(hanging.returned == 1)
        #expect(result.metrics.stopped == 1)
    }

    @Test func theEngineServesARegistryWithRoutes() async throws {
        let registry = SchemeRegistry()
        try registry.register(StaticHandler("a", name: "a"), for: "app", pathPrefix: "/a")
        try registry.register(StaticHandler("b", name: "b"), for: "app", host: "b.local")
        let engine = ScriptedEngine(registry: registry)
        #expect(try await engine.run("app://h/a/x").respondingHandler == "a")
        #expect(try await engine.run("app://b.local/a/x").respondingHandler == "b")
        #expect(try await engine.run("app://h/").status == .notFound)
        await #expect(throws: SchemeRequestError.notHierarchical("app:x")) { try await engine.run("app:x") }
    }

    @Test func anInvalidSchemeIsReported() {
        #expect(throws: SchemeRegistryError.reservedScheme("http")) {
            try ScriptedEngine(serving: StaticHandler(), scheme: "http")
        }
    }
}
