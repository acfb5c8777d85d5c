import Foundation
import GuardTestFixtures
import SchemeKit
import SchemeKitTesting
import Testing

struct FaultInjectingHandlerTests {
    static let body = Data(count: 4096)

    @Test func throwingBeforeTheHeadFailsTheTask() async throws {
        let result = try await ScriptedEngine(serving: StaticHandler(Self.body).injecting(.throwBeforeHead()))
            .run("app://h/")
        #expect(result.events.map(\.description) == ["fail(injected before head)"])
        #expect(result.metrics.failed == 1)
    }

    @Test func failingBeforeTheHeadFailsTheTask() async throws {
        let result = try await ScriptedEngine(
            serving: StaticHandler(Self.body).injecting(.failBeforeHead(InjectedError("gone")))
        )
        .run("app://h/")
        #expect(result.events.map(\.description) == ["fail(gone)"])
    }

    @Test(arguments: [0, 1, 1000, 1024, 4095])
    func errorsAfterNBytesCutTheBodyThere(bytes: Int) async throws {
        for fault in [HandlerFault.throwAfterBytes(bytes), .failAfterBytes(bytes)] {
            let handler = StaticHandler(Self.body, chunkSize: 1024).injecting(fault)
            let result = try await ScriptedEngine(serving: handler).run("app://h/")
            #expect(result.body.count == bytes, "\(fault)")
            #expect(result.failure == "injected mid-body")
            #expect(result.recording.terminalCount == 1)
            #expect(result.metrics.failed == 1)
            #expect(result.violations.isEmpty)
            #expect(result.metrics.misuseErrors == 0)
        }
    }

    @Test(arguments: [
        (HandlerFault.bodyBeforeHead, SchemeTaskError.bodyBeforeHead),
        (.duplicateHead, .duplicateHead),
        (.finishTwice, .alreadyCompleted),
        (.writeAfterFinish, .alreadyCompleted),
    ])
    func misuseIsRejectedWithATypedErrorAndTheResponseStaysIntact(fault: HandlerFault, expected: SchemeTaskError)
        async throws
    {
        let handler = StaticHandler("ok").injecting(fault)
        let result = try await ScriptedEngine(serving: handler).run("app://h/")
        #expect(handler.rejections.compactMap { $0 as? SchemeTaskError } == [expected])
        #expect(result.events.map(\.description) == ["head(200)", "data(2)", "finish"])
        #expect(result.violations.isEmpty)
        #expect(result.metrics.misuseErrors == 1)
    }
}
