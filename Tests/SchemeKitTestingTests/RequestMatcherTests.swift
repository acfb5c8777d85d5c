import SchemeKit
import SchemeKitTesting
import Testing

struct RequestMatcherTests {
    static func request(_ url: String, method: HTTPRequest.Method = .get, accept: String? = nil) throws -> SchemeRequest
    {
        var fields = HTTPFields()
        if let accept { fields[.accept] = accept }
        return try SchemeRequest(url, method: method, headerFields: fields)
    }

    @Test(arguments: [
        (RequestMatcher.any, "app://h/x", true),
        (.scheme("APP"), "app://h/x", true),
        (.scheme("web"), "app://h/x", false),
        (.host("H.local"), "app://h.local/x", true),
        (.host("h"), "app://other/x", false),
        (.path("/a/b.png"), "app://h/a/b.png?v=1", true),
        (.path("/a"), "app://h/a/b", false),
        (.pathPrefix("/api"), "app://h/api", true),
        (.pathPrefix("/api"), "app://h/api/x", true),
        (.pathPrefix("/api"), "app://h/apix", false),
        (.pathPrefix("/api/"), "app://h/api/x", true),
        (.pathExtension("png", ".JPG"), "app://h/a.jpg", true),
        (.pathExtension("png"), "app://h/a.PNG", true),
        (.pathExtension("png"), "app://h/a.png.gz", false),
        (.method(.post), "app://h/", false),
        (.scheme("app") && .pathExtension("png"), "app://h/a.png", true),
        (.scheme("app") && .pathExtension("png"), "app://h/a.css", false),
        (.pathExtension("png") || .pathExtension("css"), "app://h/a.css", true),
        (!.pathPrefix("/api"), "app://h/api/x", false),
        (!.pathPrefix("/api"), "app://h/x", true),
    ])
    func matchersTestOneAspect(matcher: RequestMatcher, url: String, expected: Bool) throws {
        #expect(matcher.matches(try Self.request(url)) == expected, "\(matcher)")
        #expect(matcher(try Self.request(url)) == expected)
    }

    @Test func headersAndMethods() throws {
        let image = try Self.request("app://h/avatar", method: .head, accept: "Image/AVIF,image/*")
        #expect(RequestMatcher.header(.accept).matches(image))
        #expect(!RequestMatcher.header(.authorization).matches(image))
        #expect(RequestMatcher.header(.accept, "image/avif,IMAGE/*").matches(image))
        #expect(!RequestMatcher.header(.accept, "image/*").matches(image))
        #expect(RequestMatcher.header(.accept, containing: "image/").matches(image))
        #expect(RequestMatcher.method(.head).matches(image))
    }

    @Test func descriptionsReadLikeTheExpression() {
        let matcher = (RequestMatcher.host("h") && .pathExtension("png")) || !.method(.get)
        #expect(matcher.description == "((host(h) && pathExtension(png)) || !method(GET))")
    }
}
