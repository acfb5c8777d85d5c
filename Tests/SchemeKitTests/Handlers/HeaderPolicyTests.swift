import Foundation
import SchemeKit
import SchemeKitTesting
import Testing

/// Response headers by path: cross-origin isolation, Cache-Control by pattern, removals, and the
/// glob and rule syntax behind them.
struct HeaderPolicyTests {
    @Test(arguments: [
        ("/**", "/", true), ("/**", "/a/b/c.js", true), ("/*.js", "/app.js", true), ("/*.js", "/lib/app.js", false),
        ("/**/*.js", "/app.js", true), ("/**/*.js", "/lib/deep/app.js", true), ("/**/*.js", "/app.css", false),
        ("/assets/**", "/assets", true), ("/assets/**", "/assets/x/y.png", true), ("/assets/**", "/assetsx", false),
        ("/api/*", "/api/users", true), ("/api/*", "/api/users/1", false), ("/a?c", "/abc", true),
        ("/a?c", "/a/c", false), ("/**/*.{js,mjs}", "/js/main.mjs", true), ("/**/*.{js,mjs}", "/x.ts", false),
        ("/*", "/.env", true), ("/my file.txt", "/my%20file.txt", true), ("/a/**/b/**/c", "/a/x/b/y/z/c", true),
        ("/a/**/b/**/c", "/a/x/c", false), ("/*a*b*c*", "/xaybzc", true), ("/*a*b*c*", "/xcybza", false),
    ])
    func pathPatterns(pattern: String, path: String, matches: Bool) throws {
        let glob = try #require(PathPattern(pattern))
        #expect(glob.matches(path) == matches, "\(pattern) vs \(path)")
    }

    @Test(arguments: ["", "*.js", "a/b", "/{a,b", "/{a,{b}}", "/a}"])
    func invalidPatternsAreRefused(pattern: String) {
        #expect(PathPattern(pattern) == nil)
    }

    @Test func rulesParseFromTheCommandLineSyntax() throws {
        let set = try HeaderRule(parsing: "/**: Cross-Origin-Opener-Policy: same-origin")
        #expect(
            set.pattern.rawValue == "/**" && set.name == HTTPField.Name("Cross-Origin-Opener-Policy")!
                && set.value == "same-origin")
        let csp = try HeaderRule(parsing: "/*.html:Content-Security-Policy:default-src 'self' https:")
        #expect(csp.value == "default-src 'self' https:")
        let remove = try HeaderRule(parsing: "/**: Server:")
        #expect(remove.value == nil)
        #expect(remove.description == "/**: Server: ")
        for (text, reason) in [
            ("/**", "expected PATTERN: Name: value"), ("/** Cache-Control max-age=1", "expected PATTERN: Name: value"),
            ("**: Cache-Control: x", "the path pattern '**' must start with /"),
            ("/**: Bad Name: x", "'Bad Name' is not a header field name"),
            ("/**: : x", "'' is not a header field name"),
        ] {
            let error = try #require(throws: HeaderRuleSyntaxError.self) { try HeaderRule(parsing: text) }
            #expect(error.description.hasPrefix(reason), "\(text): \(error)")
        }
    }

    @Test func crossOriginIsolationCacheControlAndRemovalByPath() async throws {
        let policy =
            HeaderPolicy.crossOriginIsolation()
            + .cacheControl("max-age=31536000, immutable", for: PathPattern("/assets/**")!)
            + .contentSecurityPolicy("default-src 'self'", for: PathPattern("/*.html")!)
            + HeaderPolicy([HeaderRule(PathPattern("/**")!, .server, nil)])
        let handler = StaticHandler(
            "<p>hi</p>", mimeType: "text/html",
            headerFields: [.cacheControl: "no-cache", .server: "origin/1.0"]
        ).headerPolicy(policy)
        let engine = try ScriptedEngine(serving: handler)

        let page = try #require(try await engine.run("app://localhost/index.html").response?.headerFields)
        #expect(page[.init("Cross-Origin-Opener-Policy")!] == "same-origin")
        #expect(page[.init("Cross-Origin-Embedder-Policy")!] == "require-corp")
        #expect(page[.contentSecurityPolicy] == "default-src 'self'")
        #expect(page[.cacheControl] == "no-cache")
        #expect(page[.server] == nil)

        let asset = try await engine.run("app://localhost/assets/app.js")
        let fields = try #require(asset.response?.headerFields)
        #expect(fields[.cacheControl] == "max-age=31536000, immutable")
        #expect(fields[values: .cacheControl].count == 1)
        #expect(fields[.contentSecurityPolicy] == nil)
        #expect(fields[.init("Cross-Origin-Embedder-Policy")!] == "require-corp")
        #expect(asset.bodyString == "<p>hi</p>")
        #expect(asset.response?.headerFields[.contentLength] == "9")
    }

    /// A request's path is decoded once: `/a%2541.js` names the file `a%41.js`, which a rule for
    /// `/aA.js` does not cover (decoding twice made it `/aA.js`), while `/a%41.js` is `/aA.js`.
    @Test func aRulesPathIsDecodedOnce() async throws {
        let policy = HeaderPolicy.cacheControl("max-age=60", for: PathPattern("/aA.js")!)
        let engine = try ScriptedEngine(serving: StaticHandler("1", mimeType: "text/javascript").headerPolicy(policy))
        let named = try await engine.run("app://localhost/aA.js").response?.headerFields
        #expect(named?[.cacheControl] == "max-age=60")
        let encoded = try await engine.run("app://localhost/a%41.js").response?.headerFields
        #expect(encoded?[.cacheControl] == "max-age=60")
        let other = try await engine.run("app://localhost/a%2541.js").response?.headerFields
        #expect(other?[.cacheControl] == nil)
    }

    @Test func aRuleOnContentTypeUpdatesTheMIMETypeAndLengthIsNeverTouched() async throws {
        let policy = HeaderPolicy([
            HeaderRule(PathPattern("/**/*.mjs")!, .contentType, "text/javascript; charset=utf-8"),
            HeaderRule(PathPattern("/**")!, .contentLength, "1"),
        ])
        let result = try await ScriptedEngine(serving: StaticHandler("export {}").headerPolicy(policy))
            .run("app://localhost/js/a.mjs")
        #expect(result.response?.mimeType == "text/javascript")
        #expect(result.response?.textEncodingName == "utf-8")
        #expect(result.response?.headerFields[.contentLength] == "9")
        #expect(result.bodyString == "export {}")
    }

    @Test func aPolicyWrapsAChainAndForwardsTheEnginesMemory() async throws {
        let files = try FileFixture()
        defer { files.remove() }
        try files.write("a.txt", Data(count: 200_000))
        let chain = SchemeHandlerChain(LocalFileHandler(root: files.root)).headerPolicy(.crossOriginIsolation())
        let result = try await ScriptedEngine(serving: chain).run("app://localhost/a.txt")
        #expect(result.body.count == 200_000)
        #expect(result.response?.headerFields[.init("Cross-Origin-Opener-Policy")!] == "same-origin")
        #expect(result.respondingHandler == "files")
    }

    /// Wrapped around a handler that answers at once, the policy answers at once too, with its
    /// rules applied, and that answer is the one a task delivers; file regions pass through it.
    @Test func aPolicyAnswersAtOnceAndPassesFileRegions() async throws {
        let files = try FileFixture()
        defer { files.remove() }
        try files.write("a.js", "console.log(1)")
        try files.write("big.bin", Data(count: 300_000))
        let registry = SchemeRegistry()
        try registry.register(
            SchemeHandlerChain(
                LocalFileHandler(configuration: .init(root: .directory(files.root), bodyCache: .init()))
            ).headerPolicy(.crossOriginIsolation()),
            for: "app")
        let request = try SchemeRequest("app://localhost/a.js")
        let delivered = try await registry.response(for: request)
        let immediate = try #require(registry.immediateResponse(for: request))
        #expect(immediate.head == delivered.head)
        #expect(immediate.body == delivered.body)
        #expect(immediate.head.headerFields[.init("Cross-Origin-Embedder-Policy")!] == "require-corp")
        let sink = RecordingSink(acceptsFileRegions: true)
        await registry.handle(try SchemeRequest("app://localhost/big.bin"), sink: sink)
        #expect(sink.fileRegionCount == 1)
        #expect(sink.body.count == 300_000)
    }
}
