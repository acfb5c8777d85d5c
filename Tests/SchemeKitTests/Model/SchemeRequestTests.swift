import Foundation
import SchemeKit
import Testing

struct SchemeRequestTests {
    struct Valid: Sendable, CustomTestStringConvertible {
        var url: String
        var scheme: String
        var host: String
        var path: String
        var query: String?
        var port: Int? = nil
        var testDescription: String { url }
    }

    @Test(arguments: [
        Valid(url: "app://localhost/index.html", scheme: "app", host: "localhost", path: "/index.html"),
        Valid(url: "APP://LocalHost/Index.HTML", scheme: "app", host: "localhost", path: "/Index.HTML"),
        Valid(url: "app://localhost", scheme: "app", host: "localhost", path: "/"),
        Valid(url: "app:///index.html", scheme: "app", host: "", path: "/index.html"),
        Valid(url: "app:/index.html", scheme: "app", host: "", path: "/index.html"),
        Valid(url: "app://h:8080/x?q=1&r=%20", scheme: "app", host: "h", path: "/x", query: "q=1&r=%20", port: 8080),
        Valid(url: "app://h/a%20b/c%2Fd.txt", scheme: "app", host: "h", path: "/a%20b/c%2Fd.txt"),
        Valid(url: "app://h/%2e%2e/secret", scheme: "app", host: "h", path: "/%2e%2e/secret"),
        Valid(url: "app://h/a%23b", scheme: "app", host: "h", path: "/a%23b"),
        Valid(url: "my-app+v1.0://h/", scheme: "my-app+v1.0", host: "h", path: "/"),
    ])
    func validURLsAreParsedWithoutDecodingThePath(_ valid: Valid) throws {
        let request = try SchemeRequest(valid.url)
        #expect(request.scheme == valid.scheme)
        #expect(request.host == valid.host)
        #expect(request.path == valid.path)
        #expect(request.query == valid.query)
        #expect(request.port == valid.port)
        #expect(request.method == .get)
        #expect(request.body.isEmpty)
        #expect(request.head.scheme == valid.scheme)
        #expect(request.head.path == valid.path + (valid.query.map { "?\($0)" } ?? ""))
        #expect(request.url.absoluteString == valid.url)
    }

    @Test(arguments: [
        ("app:foo", SchemeRequestError.notHierarchical("app:foo")),
        ("app:", .notHierarchical("app:")),
        ("app:?q", .notHierarchical("app:?q")),
        ("app://h/x#top", .fragmentNotAllowed("app://h/x#top")),
        ("app://h/x?y#z", .fragmentNotAllowed("app://h/x?y#z")),
        ("app://h/x#", .fragmentNotAllowed("app://h/x#")),
        ("//h/x", .missingScheme("//h/x")),
        ("/index.html", .missingScheme("/index.html")),
        ("", .malformedURL("")),
    ])
    func invalidURLsGiveAClearError(url: String, expected: SchemeRequestError) {
        #expect(throws: expected) { try SchemeRequest(url) }
        #expect(!expected.description.isEmpty)
        #expect(url.isEmpty || expected.description.contains(url))
    }

    @Test func fragmentInAURLValueIsRejected() throws {
        let url = try #require(URL(string: "app://h/page.html#section"))
        #expect(throws: SchemeRequestError.fragmentNotAllowed(url.absoluteString)) {
            try SchemeRequest(url: url)
        }
    }

    @Test func errorDescriptionsSayWhatIsWrong() {
        #expect(SchemeRequestError.notHierarchical("app:foo").description.contains("not hierarchical"))
        #expect(SchemeRequestError.fragmentNotAllowed("app://h/#x").description.contains("fragment"))
        #expect(SchemeRequestError.missingScheme("x").description.contains("no scheme"))
        // Descriptions of attacker-sized URLs stay short.
        let huge = "app:" + String(repeating: "x", count: 10_000)
        #expect(SchemeRequestError.notHierarchical(huge).description.count < 300)
    }

    /// Odd input an engine might hand over: none may trap; each either parses or throws.
    @Test(arguments: [
        "app://h:99999999999999999999/x", "app://[::1]/x", "app://ü.example/ü.html", "app://h/%", "app://h/%zz",
        "app://h/\u{0}", "app://@/", "app://user:pw@h/x", "app:////x", "a:/",
        "app://h/" + String(repeating: "a/", count: 5000),
        "app://h/a?b?c", "app://h/;p=1", "app://h/.hidden", "1app://h/", "app ://h/",
    ])
    func oddURLsNeverCrash(url: String) {
        do {
            let request = try SchemeRequest(url)
            #expect(request.path.hasPrefix("/"))
            #expect(request.scheme == request.scheme.lowercased())
            #expect(request.host == request.host.lowercased())
        } catch {
            #expect(!error.description.isEmpty)
        }
    }

    @Test(arguments: [
        ("app://h/a.PNG", "png"), ("app://h/archive.tar.gz", "gz"), ("app://h/dir.d/", ""), ("app://h/.htaccess", ""),
        ("app://h/noext", ""), ("app://h/", ""), ("app://h/a.js?v=1.2", "js"), ("app://h/x.", ""),
        ("app://h/dir.v2/file", ""), ("app://h/a%20b.Html", "html"),
    ])
    func pathExtensionIsTheLastComponentsLowercasedSuffix(url: String, expected: String) throws {
        #expect(try SchemeRequest(url).pathExtension == expected)
    }

    @Test func methodHeadersAndBodyAreKept() async throws {
        var fields = HTTPFields()
        fields[.accept] = "text/html"
        let request = try SchemeRequest(
            "app://h/form", method: .post, headerFields: fields, body: .bytes(Data("a=1".utf8)))
        #expect(request.method == .post)
        #expect(request.head.method == .post)
        #expect(request.headerFields[.accept] == "text/html")
        #expect(!request.body.isEmpty)
        #expect(try await request.body.collect() == Data("a=1".utf8))
    }

    /// A handler reads an upload chunk by chunk, in the engine's order, without empty chunks; a
    /// body in memory is one chunk, an empty body none; a failed stream throws its error.
    @Test func bodiesAreReadChunkByChunk() async throws {
        struct Reset: Error {}
        func chunks(_ body: SchemeRequestBody) async throws -> [String] {
            var chunks: [String] = []
            for try await chunk in body { chunks.append(String(decoding: chunk, as: UTF8.self)) }
            return chunks
        }
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        for part in ["ab", "", "cd", "e"] { continuation.yield(Data(part.utf8)) }
        continuation.finish()
        #expect(try await chunks(.stream(stream)) == ["ab", "cd", "e"])
        #expect(try await chunks(.bytes(Data("whole".utf8))) == ["whole"])
        #expect(try await chunks(.bytes(Data())) == [])
        #expect(try await chunks(.empty) == [])

        let (failing, failure) = AsyncThrowingStream<Data, any Error>.makeStream()
        failure.yield(Data("x".utf8))
        failure.finish(throwing: Reset())
        var iterator = SchemeRequestBody.stream(failing).makeAsyncIterator()
        #expect(try await iterator.next() == Data("x".utf8))
        await #expect(throws: Reset.self) { _ = try await iterator.next() }
        let tooLarge = await #expect(throws: SchemeRequestBodyTooLarge.self) {
            try await SchemeRequestBody.bytes(Data(count: 16)).collect(upTo: 15)
        }
        #expect(tooLarge?.description == "request body larger than 15 bytes")
    }

    @Test func streamedBodiesAreCollectedUpToALimit() async throws {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        continuation.yield(Data(count: 10))
        continuation.yield(Data(count: 10))
        continuation.finish()
        let body = SchemeRequestBody.stream(stream)
        #expect(!body.isEmpty)
        await #expect(throws: SchemeRequestBodyTooLarge.self) { try await body.collect(upTo: 15) }
        await #expect(throws: SchemeRequestBodyTooLarge.self) {
            try await SchemeRequestBody.bytes(Data(count: 16)).collect(upTo: 15)
        }
        #expect(try await SchemeRequestBody.empty.collect() == Data())
    }
}
