// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import SchemeKit
    import SchemeServe
    import Testing

    /// `--header 'PATTERN: Name: value'`: headers a host cannot otherwise set, by path, through the
    /// public configuration and over real HTTP.
    @Suite(.timeLimit(.minutes(2)))
    struct ServeHeaderRuleTests {
        @Test func headerRulesReachTheResponse() async throws {
            let rules = try [
                "/**: Cross-Origin-Opener-Policy: same-origin",
                "/**: Cross-Origin-Embedder-Policy: require-corp",
                "/*.js: Cache-Control: max-age=60",
                "/*.css: Cache-Control:",
            ].map { try HeaderRule(parsing: $0) }
            try await TestServer.with(configure: { $0.headerRules = rules }) { server in
                let page = try await RawHTTP.fetch(port: server.port, "/index.html")
                #expect(page.status == 200)
                #expect(page.header("Cross-Origin-Opener-Policy") == "same-origin")
                #expect(page.header("Cross-Origin-Embedder-Policy") == "require-corp")
                #expect(page.header("Cache-Control") == "no-cache")  // the file handler's own
                #expect(page.header("Cross-Origin-Resource-Policy") == "same-origin")  // the server's, kept

                let script = try await RawHTTP.fetch(port: server.port, "/b.js")
                #expect(script.header("Cache-Control") == "max-age=60")
                #expect(script.header("Cross-Origin-Opener-Policy") == "same-origin")

                let style = try await RawHTTP.fetch(port: server.port, "/a.css")
                #expect(style.header("Cache-Control") == nil)
                #expect(style.status == 200)

                let missing = try await RawHTTP.fetch(port: server.port, "/sub/missing.txt")
                #expect(missing.status == 404)
            }
        }

        @Test func theCommandLineOptionReachesTheResponse() throws {
            let server = try ServeProcess([
                ServeProcessTests.sampleApp,
                "--header", "/**: Cross-Origin-Opener-Policy: same-origin",
                "--header", "/**/*.mjs: Cache-Control: max-age=3600",
            ])
            defer { server.stop() }
            let page = try RawHTTP.request(port: server.port, "/index.html")
            #expect(page.status == 200)
            #expect(page.header("Cross-Origin-Opener-Policy") == "same-origin")
            #expect(page.header("Cache-Control") == "no-cache")
            let module = try RawHTTP.request(port: server.port, "/js/main.mjs")
            #expect(module.header("Cache-Control") == "max-age=3600")
        }
    }
#endif
