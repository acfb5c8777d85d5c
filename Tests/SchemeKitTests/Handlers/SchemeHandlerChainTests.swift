import Foundation
import SchemeKit
import SchemeKitTesting
import Testing

struct SchemeHandlerChainTests {
    @Test func theFirstHandlerThatAnswersWinsAndIsNamedInTheTrace() async throws {
        let first = CountingHandler(
            StubHandler(matching: .pathExtension("png"), body: Data("png".utf8), name: "images"))
        let second = CountingHandler(StubHandler(matching: .pathPrefix("/api"), body: Data("api".utf8), name: "api"))
        let third = CountingHandler(StaticHandler("fallback", name: "files"))
        let engine = try ScriptedEngine(serving: SchemeHandlerChain(first, second, third))

        let image = try await engine.run("app://h/api/logo.png")
        #expect(image.bodyString == "png")
        #expect(image.respondingHandler == "images")
        #expect((first.calls, second.calls, third.calls) == (1, 0, 0))

        let api = try await engine.run("app://h/api/users")
        #expect(api.bodyString == "api")
        #expect(api.respondingHandler == "api")
        #expect((first.passed, second.handled, third.calls) == (1, 1, 0))

        let page = try await engine.run("app://h/index.html")
        #expect(page.bodyString == "fallback")
        #expect(page.respondingHandler == "files")
        #expect((first.passed, second.passed, third.handled) == (2, 1, 1))
    }

    @Test func aChainWhereEveryHandlerPassesGets404() async throws {
        let chain = SchemeHandlerChain(
            StaticHandler("x").matching(.path("/x")), StaticHandler("y").matching(.path("/y")))
        let result = try await ScriptedEngine(serving: chain).run("app://h/z")
        #expect(result.status == .notFound)
        #expect(result.respondingHandler == "not-found")
    }

    @Test func theTraceNameIsTheInnermostHandlerWhenTheHeadIsWritten() async throws {
        let seen = Locked<[String]>([])
        let inner = ClosureHandler(name: "inner") { _, writer in
            seen.withLock { $0.append(SchemeHandlerTrace.name) }
            try await writer.respond(.ok)
            return .handled
        }
        let result = try await ScriptedEngine(serving: SchemeHandlerChain(SchemeHandlerChain(inner))).run("app://h/")
        #expect(seen.value == ["inner"])
        #expect(result.respondingHandler == "inner")
        #expect(SchemeHandlerTrace.name == "")
    }

    @Test func theChainSupportsTheUnionOfMethodsAndSkipsHandlersThatDoNotSupportOne() async throws {
        let getOnly = CountingHandler(StaticHandler("get", name: "get"))
        let post = CountingHandler(
            ClosureHandler(name: "post", methods: [.post]) { _, writer in
                try await writer.respond(.created)
                return .handled
            })
        let chain = SchemeHandlerChain([getOnly, post])
        #expect(chain.supportedMethods == [.get, .head, .post])
        let result = try await ScriptedEngine(serving: chain).run("app://h/", method: .post)
        #expect(result.status == .created)
        #expect(getOnly.calls == 0)
        #expect(post.calls == 1)
    }

    @Test func aStoppedChainDoesNotAskTheNextHandler() async throws {
        let first = HangingHandler()
        let second = CountingHandler(StaticHandler("late"))
        let engine = try ScriptedEngine(serving: SchemeHandlerChain(first, second), timeout: .milliseconds(50))
        let result = try await engine.run("app://h/")
        #expect(result.timedOut)
        #expect(result.wasStopped)
        #expect(second.calls == 0)
        #expect(result.events.map(\.description) == ["stopped"])
    }
}
