import Foundation
import SchemeKit
import SchemeKitTesting
import Testing

struct StubHandlerTests {
    @Test func staticHandlerAnswersWithItsBytes() async throws {
        let engine = try ScriptedEngine(serving: StaticHandler("héllo", mimeType: "text/html"))
        let result = try await engine.run("app://h/")
        #expect(result.bodyString == "héllo")
        #expect(result.response?.headerFields[.contentType] == "text/html; charset=utf-8")
        #expect(result.response?.headerFields[.contentLength] == "6")
        let head = try await engine.run("app://h/", method: .head)
        #expect(head.body.isEmpty)
        #expect(head.isFinished)
    }

    @Test func stubsAnswerOnlyMatchingRequests() async throws {
        let chain = SchemeHandlerChain(
            StubHandler(matching: .pathExtension("png"), mimeType: "image/png", body: Data("PNG".utf8), name: "png"),
            StaticHandler("{}", mimeType: "application/json", name: "api").matching(
                .pathPrefix("/api") && .method(.get)))
        let engine = try ScriptedEngine(serving: chain)
        let png = try await engine.run("app://h/a/b.PNG")
        #expect(png.respondingHandler == "png")
        #expect(png.response?.mimeType == "image/png")
        #expect(try await engine.run("app://h/api/users").respondingHandler == "api")
        #expect(try await engine.run("app://h/apiary").status == .notFound)
    }

    @Test func delayedHandlerWaitsOnItsClock() async throws {
        let clock = ImmediateClock()
        let result = try await ScriptedEngine(
            serving: StaticHandler("late").shaped(NetworkConditions(latency: .fixed(.seconds(5))), clock: clock)
        )
        .run("app://h/")
        #expect(result.bodyString == "late")
        #expect(clock.sleeps == [.seconds(5)])
    }

    @Test func aStopDuringTheDelayMeansTheWrappedHandlerNeverRuns() async throws {
        let inner = CountingHandler(StaticHandler("late"))
        let engine = try ScriptedEngine(
            serving: inner.shaped(NetworkConditions(latency: .fixed(.seconds(60)))), timeout: .milliseconds(20))
        let result = try await engine.run("app://h/")
        #expect(result.timedOut)
        #expect(inner.calls == 0)
        #expect(result.events.map(\.description) == ["stopped"])
    }

    @Test(arguments: [(10_000, 1_000, nil as Int?, 100), (3_000, 1_000, 1_000, 3), (1_001, 1_000, 500, 3)])
    func throttlingPacesTheBodyToTheBandwidth(bytes: Int, rate: Int, chunk: Int?, writes: Int) async throws {
        let clock = ImmediateClock()
        let handler = StaticHandler(Data(count: bytes))
            .shaped(NetworkConditions(bytesPerSecond: rate, chunkSize: chunk), clock: clock)
        let result = try await ScriptedEngine(serving: handler).run("app://h/")
        #expect(result.body.count == bytes)
        #expect(result.recording.chunks.count == writes)
        #expect(clock.sleeps.count == writes)
        #expect(clock.totalSlept == .nanoseconds(Int64(bytes) * 1_000_000_000 / Int64(rate)))
    }

    @Test func throttlingIsStoppedMidBody() async throws {
        let clock = ImmediateClock()
        let handler = StaticHandler(Data(count: 10_000))
            .shaped(NetworkConditions(bytesPerSecond: 1_000, chunkSize: 1_000), clock: clock)
        let result = try await ScriptedEngine(serving: handler).run("app://h/", stoppingAt: .afterBytes(3_000))
        #expect(result.body.count == 3_000)
        #expect(result.wasStopped)
        #expect(clock.sleeps.count <= 4)
    }

    @Test func hangingHandlerReturnsWhenStopped() async throws {
        let hanging = HangingHandler(writesHead: true)
        let result = try await ScriptedEngine(serving: hanging).run("app://h/", stoppingAt: .afterHead)
        #expect(result.events.map(\.description) == ["head(200)", "stopped"])
        #expect(!result.timedOut)
        #expect(hanging.cancellations == 1)
        #expect(hanging.returned == 1)
    }
}
