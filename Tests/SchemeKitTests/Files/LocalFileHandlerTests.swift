import Foundation
import HTTPTypes
import SchemeKit
import SchemeKitTesting
import Synchronization
import Testing

extension FilesTests {
    /// GET/HEAD, headers, validators, index, SPA fallback, passing, listing, roots.
    @Suite(.timeLimit(.minutes(1)))
    struct LocalFileHandlerTests {
        @Test func servesAFileWithItsHeaders() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            let url = try fixture.write("app.js", "console.log(1)")
            let result = try await exchange(LocalFileHandler(root: fixture.root), "app://localhost/app.js")
            #expect(result.status == 200)
            #expect(result.text == "console.log(1)")
            #expect(result.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(result.headers[.contentLength] == "14")
            #expect(result.headers[.acceptRanges] == "bytes")
            #expect(result.headers[.cacheControl] == "no-cache")
            let modified = try #require(
                try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
            #expect(result.headers[.lastModified] == HTTPDate.format(modified))
            let tag = try #require(result.headers[.eTag].flatMap(EntityTag.init))
            #expect(!tag.isWeak)
            #expect(tag.opaqueTag.hasPrefix("e-"))  // 14 bytes, in hexadecimal
            #expect(result.sink.violations.isEmpty)
            #expect(result.sink.terminalCount == 1)
        }

        @Test func headSendsTheSameHeadersWithoutABody() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("page.html", "<p>hello</p>")
            let handler = LocalFileHandler(root: fixture.root)
            let get = try await exchange(handler, "app://localhost/page.html")
            let head = try await exchange(handler, "app://localhost/page.html", method: .head)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.sink.isFinished)
            #expect(head.headers == get.headers)
        }

        @Test func etagChangesWhenTheFileChanges() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            let url = try fixture.write("a.txt", "one")
            let handler = LocalFileHandler(root: fixture.root)
            let first = try await exchange(handler, "app://localhost/a.txt").headers[.eTag]
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: url.path)
            let second = try await exchange(handler, "app://localhost/a.txt").headers[.eTag]
            try Data("three".utf8).write(to: url)
            let third = try await exchange(handler, "app://localhost/a.txt").headers[.eTag]
            #expect(first != second && second != third && first != third)
        }

        @Test func conditionalRequestsAnswer304And412() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("a.css", "body{}")
            let handler = LocalFileHandler(root: fixture.root)
            let full = try await exchange(handler, "app://localhost/a.css")
            let tag = try #require(full.headers[.eTag])
            let modified = try #require(full.headers[.lastModified])
            let weakTag = "W/" + tag

            for headers: HTTPFields in [
                [.ifNoneMatch: tag], [.ifNoneMatch: weakTag], [.ifNoneMatch: "\"other\", \(tag)"], [.ifNoneMatch: "*"],
                [.ifModifiedSince: modified],
            ] {
                for method in [HTTPRequest.Method.get, .head] {
                    let result = try await exchange(handler, "app://localhost/a.css", method: method, headers: headers)
                    #expect(result.status == 304, "\(headers)")
                    #expect(result.body.isEmpty)
                    #expect(result.headers[.eTag] == tag)
                    #expect(result.headers[.lastModified] == modified)
                    #expect(result.headers[.cacheControl] == "no-cache")
                    #expect(result.headers[.contentLength] == nil)
                    #expect(result.sink.isFinished)
                }
            }
            // A different tag wins over a matching date: If-None-Match takes precedence.
            let changed = try await exchange(
                handler, "app://localhost/a.css", headers: [.ifNoneMatch: "\"other\"", .ifModifiedSince: modified])
            #expect(changed.status == 200 && changed.text == "body{}")
            let older = try await exchange(
                handler, "app://localhost/a.css", headers: [.ifModifiedSince: "Sun, 06 Nov 1994 08:49:37 GMT"])
            #expect(older.status == 200)

            #expect(
                try await exchange(handler, "app://localhost/a.css", headers: [.ifMatch: "\"other\""]).status == 412)
            #expect(try await exchange(handler, "app://localhost/a.css", headers: [.ifMatch: tag]).status == 200)
            #expect(try await exchange(handler, "app://localhost/a.css", headers: [.ifMatch: weakTag]).status == 412)
            let unmodified = try await exchange(
                handler, "app://localhost/a.css", headers: [.ifUnmodifiedSince: "Sun, 06 Nov 1994 08:49:37 GMT"])
            #expect(unmodified.status == 412)
        }

        @Test func directoriesServeTheirIndex() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("index.html", "root index")
            try fixture.write("docs/index.html", "docs index")
            let handler = LocalFileHandler(root: fixture.root)
            // `/docs` gets a document that navigates to `/docs/` (see the slash test below).
            for (path, body) in [("/", "root index"), ("/docs/", "docs index")] {
                let result = try await exchange(handler, "app://localhost" + path)
                #expect(result.status == 200)
                #expect(result.text == body)
                #expect(result.headers[.contentType] == "text/html; charset=utf-8")
            }
            let custom = LocalFileHandler(configuration: .init(root: .directory(fixture.root), indexFileName: nil))
            #expect(try await exchange(custom, "app://localhost/docs/").wasPassed)
        }

        @Test func missingFilesArePassedToTheNextHandler() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("dir/file.txt", "x")
            let handler = LocalFileHandler(root: fixture.root)
            for path in ["/missing.js", "/dir/missing", "/dir/file.txt/more", "/empty-dir/"] {
                let result = try await exchange(handler, "app://localhost" + path)
                #expect(result.wasPassed, "\(path)")
            }
            // In a chain, the next handler answers.
            let fallback = ClosureHandler { _, writer in
                try await writer.respond(.ok, body: Data("from network".utf8))
                return .handled
            }
            let chained = try await exchange(SchemeHandlerChain(handler, fallback), "app://localhost/missing.js")
            #expect(chained.text == "from network")
            // A missing root fails instead (see LocalFileRootTests), unless asked to pass.
            let noRoot = LocalFileHandler(
                configuration: .init(
                    root: .directory(fixture.base.appendingPathComponent("nope")), unavailableRoot: .pass))
            #expect(try await exchange(noRoot, "app://localhost/index.html").wasPassed)
        }

        @Test func singlePageFallbackServesTheIndexForExtensionlessRoutes() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("index.html", "spa shell")
            try fixture.write("about.txt", "about")
            let spa = LocalFileHandler(configuration: .init(root: .directory(fixture.root), singlePageFallback: true))
            #expect(try await exchange(spa, "app://localhost/users/42").text == "spa shell")
            #expect(try await exchange(spa, "app://localhost/about.txt").text == "about")
            #expect(try await exchange(spa, "app://localhost/missing.js").wasPassed)
            #expect(try await exchange(spa, "app://localhost/%2e%2e/x").status == 403)
            let plain = LocalFileHandler(root: fixture.root)
            #expect(try await exchange(plain, "app://localhost/users/42").wasPassed)
        }

        @Test func contentTypeByExtensionAndBySniffing() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
            png.append(Data("IHDR".utf8))
            png.append(Data(count: 3000))
            try fixture.write("logo", png)
            try fixture.write("style.CSS", "a{}")
            try fixture.write("data.json", "{}")
            let handler = LocalFileHandler(root: fixture.root)
            #expect(
                try await exchange(handler, "app://localhost/style.CSS").headers[.contentType]
                    == "text/css; charset=utf-8")
            #expect(
                try await exchange(handler, "app://localhost/data.json").headers[.contentType]
                    == "application/json; charset=utf-8")
            let logo = try await exchange(handler, "app://localhost/logo")
            #expect(logo.body == png)
            let detector = MIMEDetector()
            #expect(
                logo.sink.response?.mimeType
                    == detector.contentType(forPath: "logo", leadingBytes: png.prefix(1445)).mimeType)
            #expect(logo.sink.response?.mimeType == "image/png")
        }

        @Test func dynamicRootIsResolvedOncePerRequest() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            let v1 = fixture.base.appendingPathComponent("v1")
            let v2 = fixture.base.appendingPathComponent("v2")
            for (directory, text) in [(v1, "version 1"), (v2, "version 2")] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: directory.appendingPathComponent("index.html"))
            }
            let active = Locked(v1)
            let calls = Atomic(0)
            let handler = LocalFileHandler(
                configuration: .init(
                    root: .dynamic {
                        calls.add(1, ordering: .relaxed)
                        return active.withLock { $0 }
                    }))
            #expect(try await exchange(handler, "app://localhost/").text == "version 1")
            active.withLock { $0 = v2 }
            #expect(try await exchange(handler, "app://localhost/").text == "version 2")
            #expect(calls.load(ordering: .relaxed) == 2)
        }

        @Test func inFlightResponsesKeepReadingTheFileTheyOpened() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            let v1 = fixture.base.appendingPathComponent("v1")
            try FileManager.default.createDirectory(at: v1, withIntermediateDirectories: true)
            let content = Data((0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            try content.write(to: v1.appendingPathComponent("big.bin"))
            let handler = LocalFileHandler(configuration: .init(root: .dynamic { v1 }, chunkSize: 16 * 1024))
            let registry = SchemeRegistry()
            try registry.register(handler, for: "app")
            // Delete the whole version after the first chunk: the open descriptor keeps the bytes.
            let sink = CallbackSink { chunk in
                if chunk == 1 { try? FileManager.default.removeItem(at: v1) }
            }
            await registry.handle(try SchemeRequest("app://localhost/big.bin"), sink: sink)
            #expect(sink.recording.body == content)
            #expect(sink.recording.isFinished)
        }

        @Test func hostSubdirectories() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("a.example/index.html", "site a")
            try fixture.write("b.example/index.html", "site b")
            let handler = LocalFileHandler(
                configuration: .init(root: .directory(fixture.root), usesHostSubdirectories: true))
            #expect(try await exchange(handler, "app://a.example/").text == "site a")
            #expect(try await exchange(handler, "app://B.example/").text == "site b")
            #expect(try await exchange(handler, "app://c.example/").wasPassed)
        }

        @Test func directoryListingEscapesNamesAndHidesDotfiles() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("list/<img src=x onerror='alert(1)'>.txt", "x")
            try fixture.write("list/a&b \"q\".txt", "x")
            try fixture.write("list/sub/x.txt", "x")
            try fixture.write("list/.secret", "x")
            // A dot followed by a combining mark is one `Character` that is not "."; still a dotfile.
            try fixture.write("list/.\u{301}hidden", "x")
            // A directory whose name starts with a combining mark: its link keeps the separator.
            try fixture.write("list/\u{301}dir/x.txt", "x")
            let handler = LocalFileHandler(configuration: .init(root: .directory(fixture.root), directoryListing: true))
            let result = try await exchange(handler, "app://localhost/list/")
            #expect(result.status == 200)
            #expect(result.headers[.contentType] == "text/html; charset=utf-8")
            let html = result.text
            #expect(!html.contains("<img"))
            #expect(html.contains(">&lt;img src=x onerror=&#39;alert(1)&#39;&gt;.txt</a>"))
            #expect(html.contains("href=\"/list/%3Cimg%20src%3Dx%20onerror%3D%27alert%281%29%27%3E.txt\""))
            #expect(html.contains("a&amp;b &quot;q&quot;.txt"))
            #expect(html.contains("href=\"/list/sub/\""))
            #expect(!html.contains(".secret"))
            #expect(!html.contains("hidden"))
            #expect(html.contains("href=\"/list/%CC%81dir/\""))
            #expect(!html.contains(fixture.root.path))
            // Inside that directory, the links name both components.
            let inner = try await exchange(handler, "app://localhost/list/%CC%81dir/").text
            #expect(inner.contains("href=\"/list/%CC%81dir/x.txt\""))
            // Off by default: the request is passed on.
            #expect(try await exchange(LocalFileHandler(root: fixture.root), "app://localhost/list/").wasPassed)
        }

        @Test func aDirectoryWithoutItsSlashIsRedirectedWhenAskedAndNavigatedThereByDefault() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("docs/index.html", "<script src=app.js></script>")
            try fixture.write("docs/app.js", "1")
            try fixture.write("sp ace/ü/index.html", "u")
            try fixture.write("evil.example/index.html", "e")
            try fixture.write("bare/x.txt", "x")
            let redirecting = LocalFileHandler(
                configuration: .init(root: .directory(fixture.root), directorySlashRedirect: true))
            // The index page's relative `app.js` must resolve to /docs/app.js: the URL needs its slash.
            let moved = try await exchange(redirecting, "app://localhost/docs?v=1")
            #expect(moved.status == 301)
            #expect(moved.headers[.location] == "/docs/?v=1")
            #expect(moved.sink.violations.isEmpty)
            let head = try await exchange(redirecting, "app://localhost/docs", method: .head)
            #expect(head.status == 301 && head.body.isEmpty && head.headers[.location] == "/docs/")
            // The Location is rebuilt from the decoded path: encoded as a URL path, always one path.
            #expect(
                try await exchange(redirecting, "app://localhost/sp%20ace/%C3%BC").headers[.location]
                    == "/sp%20ace/%C3%BC/")
            #expect(
                try await exchange(redirecting, "app://localhost//evil.example").headers[.location] == "/evil.example/")
            // With the slash, a file, the root, or a directory with nothing to show: as before.
            #expect(try await exchange(redirecting, "app://localhost/docs/").text == "<script src=app.js></script>")
            #expect(try await exchange(redirecting, "app://localhost/docs/app.js").text == "1")
            #expect(try await exchange(redirecting, "app://localhost/").status == 404)
            #expect(try await exchange(redirecting, "app://localhost/bare").wasPassed)
            // A listing moves too, when there is one.
            let listing = LocalFileHandler(
                configuration: .init(
                    root: .directory(fixture.root), directoryListing: true, directorySlashRedirect: true))
            #expect(try await exchange(listing, "app://localhost/bare").headers[.location] == "/bare/")
            // A file with a slash after it is not a directory (nginx: 404): relative links would break.
            #expect(try await exchange(redirecting, "app://localhost/docs/app.js/").wasPassed)
            #expect(try await exchange(LocalFileHandler(root: fixture.root), "app://localhost/docs/app.js/").wasPassed)
            // Off by default (WebKit follows no custom-scheme redirect): a document that navigates
            // to the slash URL, so the page ends where a redirect would have taken it.
            let plain = try await exchange(LocalFileHandler(root: fixture.root), "app://localhost/docs?v=1")
            #expect(plain.status == 200 && plain.headers[.contentType] == "text/html; charset=utf-8")
            #expect(plain.headers[.location] == nil)
            #expect(plain.text.contains(#"location.replace("/docs/?v=1" + location.hash)"#), "\(plain.text)")
            #expect(plain.text.contains(#"<meta http-equiv="refresh" content="0; url=/docs/?v=1">"#))
            // A query cannot end the attribute or the script: `&` is an entity in the attribute, and
            // what URL parsing leaves raw stays inside the script's string.
            let query = try await exchange(LocalFileHandler(root: fixture.root), "app://localhost/docs?a='b'&c=d")
            #expect(query.text.contains("url=/docs/?a='b'&amp;c=d\""), "\(query.text)")
            #expect(query.text.contains(#"location.replace("/docs/?a='b'&c=d" + location.hash)"#), "\(query.text)")
            let hostile = try await exchange(
                LocalFileHandler(root: fixture.root), #"app://localhost/docs?a="b"&c=</script><x>"#)
            #expect(hostile.status == 200 && !hostile.text.contains("</script><x>"), "\(hostile.text)")
            let plainHead = try await exchange(
                LocalFileHandler(root: fixture.root), "app://localhost/docs", method: .head)
            #expect(plainHead.status == 200 && plainHead.body.isEmpty)
            // With the slash, the index in place.
            #expect(
                try await exchange(LocalFileHandler(root: fixture.root), "app://localhost/docs/").text
                    == "<script src=app.js></script>")
        }
    }
}

/// A sink that records into a ``RecordingSink`` and calls `onChunk` with each chunk's number.
///
/// With `holdingAfter: n`, the sink has no capacity once it has received `n` chunks: the writer
/// waits in `waitForCapacity()` until its Swift task is cancelled (at most 30 s), so a test that
/// cancels after chunk `n` does not race a handler that would otherwise read to the end first.
final class CallbackSink: SchemeTaskSink {
    let recording = RecordingSink()
    private let chunks = Atomic(0)
    private let holdingAfter: Int?
    private let onChunk: @Sendable (Int) -> Void

    init(holdingAfter: Int? = nil, onChunk: @escaping @Sendable (Int) -> Void) {
        self.holdingAfter = holdingAfter
        self.onChunk = onChunk
    }

    func waitForCapacity() async {
        guard let holdingAfter, chunks.load(ordering: .relaxed) >= holdingAfter else { return }
        try? await Task.sleep(for: .seconds(30))  // hangs until cancelled (at most 30 s)
    }

    func receive(_ response: SchemeResponse) { recording.receive(response) }
    func receive(_ body: SchemeBody) {
        recording.receive(body)
        onChunk(chunks.add(1, ordering: .relaxed).newValue)
    }
    func finish() { recording.finish() }
    func fail(_ error: any Error) { recording.fail(error) }
}
