// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import SchemeKit
    import Testing

    @testable import SchemeServe

    /// `--header 'PATTERN: Name: value'`: headers a host cannot otherwise set, by path, through the
    /// public configuration and over real HTTP.
    @Suite(.ownThread, .timeLimit(.minutes(2)))
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

        /// Rules decide on the path the file handler serves: `//index.html`, `/sub//file.txt` and a
        /// percent-encoded spelling get the rule's headers like the plain path (they did not).
        @Test func everySpellingOfAPathGetsItsRules() async throws {
            let rules = try [
                "/index.html: Content-Security-Policy: default-src 'self'",
                "/sub/**: X-Frame-Options: DENY",
            ].map { try HeaderRule(parsing: $0) }
            try await TestServer.with(
                configure: { $0.headerRules = rules },
                site: { root in
                    try Fixtures.standardSite(root)
                    try Fixtures.write("in sub", "sub/file.txt", in: root)
                }
            ) { server in
                for target in ["/index.html", "//index.html", "/%69ndex.html"] {
                    let page = try await RawHTTP.fetch(port: server.port, target)
                    #expect(page.status == 200, "\(target)")
                    #expect(page.header("Content-Security-Policy") == "default-src 'self'", "\(target)")
                }
                for target in ["/sub/file.txt", "/sub//file.txt", "//sub/file.txt", "/s%75b/file.txt"] {
                    let file = try await RawHTTP.fetch(port: server.port, target)
                    #expect(file.status == 200 && file.body == Data("in sub".utf8), "\(target)")
                    #expect(file.header("X-Frame-Options") == "DENY", "\(target)")
                }
            }
        }

        /// A target is decoded once: `/a%2541.js` is the file `a%41.js`, which a rule for `/aA.js`
        /// does not cover, while `/a%41.js` is `/aA.js`.
        @Test func aRulesPathIsDecodedOnce() async throws {
            let rules = try ["/aA.js: X-Rule: hit"].map { try HeaderRule(parsing: $0) }
            try await TestServer.with(
                configure: { $0.headerRules = rules },
                site: { root in
                    try Fixtures.standardSite(root)
                    try Fixtures.write("A", "aA.js", in: root)
                    try Fixtures.write("percent", "a%41.js", in: root)
                }
            ) { server in
                let named = try await RawHTTP.fetch(port: server.port, "/aA.js")
                #expect(named.status == 200 && named.header("X-Rule") == "hit")
                let encoded = try await RawHTTP.fetch(port: server.port, "/a%41.js")
                #expect(encoded.body == Data("A".utf8) && encoded.header("X-Rule") == "hit")
                let other = try await RawHTTP.fetch(port: server.port, "/a%2541.js")
                #expect(other.status == 200 && other.body == Data("percent".utf8))
                #expect(other.header("X-Rule") == nil)
            }
        }

        /// A rule can set or remove the server's own fields, on its own answers too (a guard 403).
        @Test func aRuleOverridesOrRemovesTheServersOwnFields() async throws {
            let rules = try [
                "/**: X-Content-Type-Options:",
                "/**: Cross-Origin-Resource-Policy: cross-origin",
                "/*.js: Vary:",
            ].map { try HeaderRule(parsing: $0) }
            try await TestServer.with(configure: { $0.headerRules = rules }) { server in
                let page = try await RawHTTP.fetch(port: server.port, "/index.html")
                #expect(page.header("X-Content-Type-Options") == nil)
                #expect(page.header("Cross-Origin-Resource-Policy") == "cross-origin")
                let script = try await RawHTTP.fetch(
                    port: server.port, "/b.js", headers: ["Accept-Encoding": "gzip"])
                #expect(script.header("Vary") == nil)
                let refused = try await RawHTTP.fetch(port: server.port, "/index.html", host: "evil.example")
                #expect(refused.status == 403)
                #expect(refused.header("Cross-Origin-Resource-Policy") == "cross-origin")
                #expect(refused.header("X-Content-Type-Options") == nil)
            }
        }

        /// A rule for a field that frames the message is refused when the server is made, and by
        /// the command line with one line and exit 64.
        @Test func aRuleForAFieldTheServerOwnsIsRefused() throws {
            for rule in ["/**: Content-Length: 5", "/**: Transfer-Encoding: chunked", "/**: Date:"] {
                var configuration = ServeConfiguration(root: URL(filePath: "/tmp"))
                configuration.headerRules = [try HeaderRule(parsing: rule)]
                #expect(throws: ServeError.self) { try configuration.validateHeaderRules() }
                let (status, _, stderr) = try ServeProcess.runToEnd([ServeProcessTests.sampleApp, "--header", rule])
                #expect(status == 64, "\(rule)")
                let lines = stderr.split(separator: "\n").filter { $0.contains("error") }
                #expect(lines.count == 1 && lines[0].contains("cannot be changed"), "\(stderr)")
            }
        }
    }
#endif
