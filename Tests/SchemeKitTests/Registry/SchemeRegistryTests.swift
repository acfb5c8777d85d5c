import Foundation
import SchemeKit
import SchemeKitTesting
import Testing

struct SchemeRegistryTests {
    @Test func registrationIsCaseInsensitiveAndValidated() throws {
        let registry = SchemeRegistry()
        try registry.register(StaticHandler("a"), for: "App")
        #expect(registry.schemes == ["app"])
        #expect(throws: SchemeRegistryError.duplicateRoute("app://*/")) {
            try registry.register(StaticHandler("b"), for: "APP")
        }
        #expect(throws: SchemeRegistryError.reservedScheme("https")) {
            try registry.register(StaticHandler("b"), for: "HTTPS")
        }
        #expect(throws: SchemeRegistryError.invalidSchemeName("9app")) {
            try registry.register(StaticHandler("b"), for: "9app")
        }
        #expect(throws: SchemeRegistryError.invalidPathPrefix("api")) {
            try registry.register(StaticHandler("b"), for: "app", pathPrefix: "api")
        }
        #expect(SchemeRegistryError.duplicateRoute("app://*/").description.contains("already registered"))
        #expect(SchemeRegistryError.invalidPathPrefix("api").description.contains("must start with '/'"))
        #expect(registry.metrics.started == 0)
    }

    private func routedRegistry() throws -> SchemeRegistry {
        let registry = SchemeRegistry()
        try registry.register(StaticHandler("root", name: "root"), for: "app")
        try registry.register(StaticHandler("api", name: "api"), for: "app", pathPrefix: "/api")
        try registry.register(StaticHandler("api-v2", name: "api-v2"), for: "app", pathPrefix: "/api/v2")
        try registry.register(StaticHandler("assets", name: "assets"), for: "app", pathPrefix: "/assets/")
        try registry.register(StaticHandler("cdn", name: "cdn"), for: "app", host: "CDN.local")
        try registry.register(
            StaticHandler("cdn-img", name: "cdn-img"), for: "app", host: "cdn.local", pathPrefix: "/img")
        try registry.register(StaticHandler("other", name: "other"), for: "other")
        return registry
    }

    @Test(arguments: [
        ("app://localhost/", "root"),
        ("app://localhost/index.html", "root"),
        ("app://localhost/api", "api"),
        ("app://localhost/api/users", "api"),
        ("app://localhost/apix", "root"),  // prefixes match whole segments
        ("app://localhost/api/v2", "api-v2"),
        ("app://localhost/api/v2/x", "api-v2"),
        ("app://localhost/api/v20", "api"),
        ("app://localhost/assets/a.css", "assets"),
        ("app://localhost/assets", "root"),
        ("app://cdn.local/x", "cdn"),
        ("app://CDN.LOCAL/img/a.png", "cdn-img"),
        ("app://cdn.local/api/v2", "cdn"),  // a route for the host beats any-host routes
        ("APP://localhost/", "root"),
        ("other://h/", "other"),
    ])
    func requestsRouteByHostThenLongestPrefix(url: String, expected: String) async throws {
        let registry = try routedRegistry()
        let request = try SchemeRequest(url)
        #expect(registry.handler(for: request)?.name == expected)
        let sink = RecordingSink()
        let task = registry.task(for: request, sink: sink)
        await task.run()
        #expect(sink.bodyString == expected)
        #expect(task.respondingHandler == expected)
    }

    @Test func unregisterRemovesRoutes() async throws {
        let registry = try routedRegistry()
        #expect(registry.unregister(scheme: "app", pathPrefix: "/api/v2"))
        #expect(registry.handler(for: try SchemeRequest("app://h/api/v2"))?.name == "api")
        #expect(registry.unregister(scheme: "app", host: "cdn.local", pathPrefix: "/img"))
        #expect(registry.handler(for: try SchemeRequest("app://cdn.local/img/a"))?.name == "cdn")
        #expect(registry.unregister(scheme: "APP", host: "CDN.local"))
        #expect(registry.handler(for: try SchemeRequest("app://cdn.local/img/a"))?.name == "root")
        #expect(!registry.unregister(scheme: "app", host: "nowhere"))
        #expect(!registry.unregister(scheme: "https"))
        #expect(registry.unregister(scheme: "app"))
        #expect(registry.schemes == ["other"])
        #expect(registry.handler(for: try SchemeRequest("app://h/")) == nil)
        // Unregistered: the route can be taken again.
        try registry.register(StaticHandler("again", name: "again"), for: "app")
        #expect(registry.handler(for: try SchemeRequest("app://h/"))?.name == "again")
    }

    @Test(arguments: [
        ("app://localhost/missing", HTTPRequest.Method.get, "Not Found\n"),
        ("nothing://h/", .get, "Not Found\n"),
        ("app://localhost/missing", .head, ""),
    ])
    func unansweredRequestsGetAPlainText404(url: String, method: HTTPRequest.Method, body: String) async throws {
        let registry = SchemeRegistry()
        try registry.register(ClosureHandler { _, _ in .passed }, for: "app")
        let result = try await withTimeout {
            try await ScriptedEngine(registry: registry).run(url, method: method)
        }
        #expect(result.status == .notFound)
        #expect(result.response?.headerFields[.contentType] == "text/plain; charset=utf-8")
        #expect(result.response?.headerFields[.contentLength] == "10")
        #expect(result.bodyString == body)
        #expect(result.isFinished)
        #expect(result.respondingHandler == "not-found")
        #expect(result.violations.isEmpty)
    }

    @Test func otherMethodsGet405WithAllow() async throws {
        let registry = SchemeRegistry()
        try registry.register(StaticHandler("page"), for: "app")
        let engine = ScriptedEngine(registry: registry)
        for method in [HTTPRequest.Method.post, .put, .delete, .options] {
            let result = try await engine.run("app://h/form", method: method)
            #expect(result.status == .methodNotAllowed)
            #expect(result.response?.headerFields[.allow] == "GET, HEAD")
            #expect(result.bodyString == "Method Not Allowed\n")
            #expect(result.respondingHandler == "method-filter")
            #expect(result.isFinished)
        }
        let head = try await engine.run("app://h/form", method: .head)
        #expect(head.status == .ok)
        #expect(head.body.isEmpty)
    }

    @Test func aHandlerCanOptInToPost() async throws {
        let registry = SchemeRegistry()
        try registry.register(
            ClosureHandler(name: "form", methods: [.get, .post]) { request, writer in
                let body = try await request.body.collect()
                try await writer.respond(.ok, body: body)
                return .handled
            }, for: "app")
        let result = try await ScriptedEngine(registry: registry).run(
            "app://h/form", method: .post, body: .bytes(Data("a=1".utf8)))
        #expect(result.status == .ok)
        #expect(result.bodyString == "a=1")
        let put = try await ScriptedEngine(registry: registry).run("app://h/form", method: .put)
        #expect(put.status == .methodNotAllowed)
        #expect(put.response?.headerFields[.allow] == "GET, POST")
    }

    @Test func handleRunsToCompletion() async throws {
        let registry = SchemeRegistry()
        try registry.register(StaticHandler("done"), for: "app")
        let sink = RecordingSink()
        await registry.handle(try SchemeRequest("app://h/"), sink: sink)
        #expect(sink.bodyString == "done")
        #expect(registry.metrics.finished == 1)
        #expect(registry.metrics.live == 0)
    }

    @Test func registrationMayHappenWhileRequestsRun() async throws {
        let registry = SchemeRegistry()
        try registry.register(StaticHandler("x"), for: "app")
        try await withTimeout {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for index in 0..<200 {
                        try registry.register(StaticHandler("\(index)"), for: "app", pathPrefix: "/p\(index)")
                        if index % 2 == 0 { registry.unregister(scheme: "app", pathPrefix: "/p\(index)") }
                    }
                }
                for _ in 0..<4 {
                    group.addTask {
                        for index in 0..<200 {
                            let sink = RecordingSink()
                            await registry.handle(try SchemeRequest("app://h/p\(index)"), sink: sink)
                            #expect(sink.terminalCount == 1)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        #expect(registry.metrics.started == 800)
        #expect(registry.metrics.live == 0)
    }
}
