import Foundation
import SchemeKit
import SchemeKitTesting
import Testing

struct RequestKindRouterTests {
    @Test(arguments: [
        ("app://h/index.html", nil as String?, RequestKind.document),
        ("app://h/", nil, .document),
        ("app://h/page", "text/html,application/xhtml+xml;q=0.9", .document),
        ("app://h/app.js", nil, .scriptOrStyle),
        ("app://h/app.MJS", nil, .scriptOrStyle),
        ("app://h/site.css", "text/css,*/*;q=0.1", .scriptOrStyle),
        ("app://h/mod.wasm", nil, .scriptOrStyle),
        ("app://h/logo.PNG", nil, .image),
        ("app://h/avatar", "image/avif,image/webp,*/*", .image),
        ("app://h/photo.avif", "text/html", .image),  // the extension decides first
        ("app://h/clip.mp4", nil, .media),
        ("app://h/stream", "video/webm", .media),
        ("app://h/data.json", "application/json", .other),
        ("app://h/font.woff2", nil, .other),
        ("app://h/api/x", nil, .other),
    ])
    func kindsComeFromTheExtensionThenAccept(url: String, accept: String?, expected: RequestKind) throws {
        var fields = HTTPFields()
        if let accept { fields[.accept] = accept }
        #expect(RequestKind.of(try SchemeRequest(url, headerFields: fields)) == expected)
    }

    @Test func requestsGoToTheHandlerForTheirKind() async throws {
        let router = RequestKindRouter(
            routes: [
                .document: StaticHandler("doc", name: "pages"),
                .image: StaticHandler("img", name: "image-cache"),
            ],
            fallback: StaticHandler("net", name: "network"))
        #expect(router.name == "kind-router")
        let engine = try ScriptedEngine(serving: router)
        var accept = HTTPFields()
        accept[.accept] = "image/*"
        let cases: [(String, HTTPFields, String)] = [
            ("app://h/index.html", [:], "pages"), ("app://h/a.png", [:], "image-cache"),
            ("app://h/avatar", accept, "image-cache"), ("app://h/app.js", [:], "network"),
        ]
        for (url, fields, expected) in cases {
            let result = try await engine.run(url, headerFields: fields)
            #expect(result.respondingHandler == expected, "\(url)")
        }
    }

    @Test func withoutAFallbackUnroutedKindsPass() async throws {
        let router = RequestKindRouter(routes: [.image: StaticHandler("img")])
        let result = try await ScriptedEngine(serving: router).run("app://h/a.css")
        #expect(result.status == .notFound)
        #expect(router.supportedMethods == [.get, .head])
    }
}
