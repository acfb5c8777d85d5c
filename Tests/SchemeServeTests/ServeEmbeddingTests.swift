// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import SchemeKit
    import SchemeServe
    import Testing

    /// A user who embeds `SchemeServer` serves handlers of their own next to the directory by
    /// registering them on the server's registry under a path prefix, as the initializer's
    /// documentation shows.
    @Suite(.ownThread, .timeLimit(.minutes(1)))
    struct ServeEmbeddingTests {
        @Test func aHandlerRegisteredUnderAPrefixIsServedNextToTheFiles() async throws {
            let api = ClosureHandler(name: "api") { request, writer in
                let body = Data("{\"path\":\"\(request.path)\"}".utf8)
                try await writer.respond(SchemeResponse(status: .ok, mimeType: "application/json"), body: body)
                return .handled
            }
            try await TestServer.with(register: { try $0.register(api, for: "app", pathPrefix: "/api") }) { server in
                let answer = try await RawHTTP.fetch(port: server.port, "/api/users?page=2")
                #expect(answer.status == 200)
                #expect(answer.header("Content-Type")?.hasPrefix("application/json") == true)
                #expect(answer.text == "{\"path\":\"/api/users\"}")

                // The directory is still served, and a path that only starts with the prefix's
                // letters is not under it (whole segments): the file chain answers 404.
                let page = try await RawHTTP.fetch(port: server.port, "/index.html")
                #expect(page.status == 200)
                #expect(page.text.contains("<h1>hi</h1>"))
                let sibling = try await RawHTTP.fetch(port: server.port, "/apiary")
                #expect(sibling.status == 404)

                // HEAD gets the head alone, as for a file.
                let head = try await RawHTTP.fetch(port: server.port, "/api/users", method: "HEAD")
                #expect(head.status == 200)
                #expect(head.body.isEmpty)
            }
        }
    }
#endif
