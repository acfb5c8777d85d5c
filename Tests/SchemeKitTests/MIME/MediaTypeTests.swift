import Testing

@testable import SchemeKit

struct MediaTypeTests {
    struct ParseCase: Sendable, CustomTestStringConvertible {
        let raw: String
        let essence: String
        let parameters: [String: String]
        let serialized: String
        var testDescription: String { raw }
    }

    static let parseCases: [ParseCase] = [
        .init(raw: "text/html", essence: "text/html", parameters: [:], serialized: "text/html"),
        .init(
            raw: "text/html; charset=utf-8", essence: "text/html", parameters: ["charset": "utf-8"],
            serialized: "text/html; charset=utf-8"),
        .init(
            raw: "  Text/HTML ;Charset=\"UTF-8\"  ", essence: "text/html", parameters: ["charset": "utf-8"],
            serialized: "text/html; charset=utf-8"),
        .init(
            raw: "multipart/form-data; boundary=\"a b\"", essence: "multipart/form-data",
            parameters: ["boundary": "a b"], serialized: "multipart/form-data; boundary=\"a b\""),
        .init(
            raw: "text/plain; a=\"x\\\"y\"", essence: "text/plain", parameters: ["a": "x\"y"],
            serialized: "text/plain; a=\"x\\\"y\""),
        .init(raw: "image/svg+xml;", essence: "image/svg+xml", parameters: [:], serialized: "image/svg+xml"),
        // Malformed parameters are skipped; the first of two with one name wins.
        .init(
            raw: "text/plain; novalue; =x; a=; b=1; b=2", essence: "text/plain", parameters: ["b": "1"],
            serialized: "text/plain; b=1"),
        .init(
            raw: "application/manifest+json; Profile=Web", essence: "application/manifest+json",
            parameters: ["profile": "Web"], serialized: "application/manifest+json; profile=Web"),
    ]

    @Test(arguments: parseCases)
    func parsesAndSerializes(_ testCase: ParseCase) throws {
        let type = try #require(MediaType(rawValue: testCase.raw))
        #expect(type.essence == testCase.essence)
        #expect(Dictionary(uniqueKeysWithValues: type.parameters.map { ($0.name, $0.value) }) == testCase.parameters)
        #expect(type.rawValue == testCase.serialized)
        #expect(MediaType(rawValue: type.rawValue) == type)
    }

    @Test(arguments: ["", "text", "text/", "/html", "te xt/html", "text/ht@ml", "text/ html", "text/html/x y", "ü/x"])
    func rejectsMalformedTypes(_ raw: String) {
        #expect(MediaType(rawValue: raw) == nil)
    }

    @Test func comparesCaseInsensitivelyWhereTheStandardsSaySo() {
        #expect(MediaType(rawValue: "TEXT/Html; CHARSET=UTF-8") == MediaType(rawValue: "text/html; charset=utf-8"))
        #expect(MediaType(rawValue: "text/plain; a=X") != MediaType(rawValue: "text/plain; a=x"))
        #expect(Set([MediaType.html, MediaType(rawValue: "TEXT/HTML")!]).count == 1)
    }

    @Test func setsAndRemovesParameters() {
        let type = MediaType.html.withCharset("UTF-8")
        #expect(type.rawValue == "text/html; charset=utf-8")
        #expect(type.charset == "utf-8")
        #expect(type[parameter: "CHARSET"] == "utf-8")
        #expect(type.withCharset("utf-16").rawValue == "text/html; charset=utf-16")
        #expect(type.withCharset(nil) == .html)
        #expect(type.withoutParameters == .html)
        #expect(MediaType.json.settingParameter("q", to: "").rawValue == "application/json; q=\"\"")
    }

    @Test(arguments: [
        ("text/html", true), ("text/css", true), ("text/javascript", true), ("application/json", true),
        ("application/javascript", true), ("application/xml", true), ("image/svg+xml", true),
        ("application/manifest+json", true), ("application/ld+json", true), ("application/xhtml+xml", true),
        ("application/vnd.apple.mpegurl", true), ("application/yaml", true), ("TEXT/PLAIN", true),
        ("image/png", false), ("application/octet-stream", false), ("application/wasm", false),
        ("font/woff2", false), ("video/mp4", false), ("application/epub+zip", false), ("application/pdf", false),
    ])
    func classifiesTextTypes(_ raw: String, _ isText: Bool) throws {
        #expect(try #require(MediaType(rawValue: raw)).isText == isText)
        #expect(MediaType.isText(essence: raw) == isText)
    }

    @Test func matchesWildcards() {
        #expect(MediaType.png.matches(MediaType(rawValue: "image/*")!))
        #expect(MediaType.png.matches(MediaType(rawValue: "*/*")!))
        #expect(!MediaType.png.matches(MediaType(rawValue: "text/*")!))
        #expect(MediaType.png.matches(.png))
        #expect(!MediaType.png.matches(.jpeg))
    }

    @Test func constantsSerializeToTheirWebNames() {
        #expect(MediaType.javascript.rawValue == "text/javascript")
        #expect(MediaType.wasm.rawValue == "application/wasm")
        #expect(MediaType.webManifest.rawValue == "application/manifest+json")
        #expect(MediaType.woff2.rawValue == "font/woff2")
        #expect(MediaType.icon.rawValue == "image/x-icon")
        #expect(MediaType.octetStream.description == "application/octet-stream")
    }
}
