import Foundation
import SchemeKit
import SchemeKitTesting
import Testing

/// Recording real traffic and replaying it offline: through a loopback origin, by request body,
/// in update mode, with a body too large for the HAR file itself, with ranges.
@Suite(.timeLimit(.minutes(3)))
struct HARRecordReplayTests {
    @Test func recordedThroughALoopbackOriginThenReplayedWithTheOriginStopped() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let origin = try LoopbackOrigin()
        defer { origin.stop() }
        let harFile = directory.appending("origin.har")
        let network = NetworkFallbackHandler(
            origin: origin.url, configuration: .init(supportedMethods: [.get, .head, .post]))
        let recorder = HARRecorder(network, to: harFile, options: HARRecordingOptions(maxInlineBodySize: 64 << 10))
        let live = try ScriptedEngine(serving: recorder)

        let requests: [(String, HTTPRequest.Method, Data?)] = [
            ("/page.html?body=%3Ch1%3Ehello%3C%2Fh1%3E&type=text/html", .get, nil),
            ("/data.bin?size=5000", .get, nil),
            ("/large.bin?size=300000", .get, nil),
            ("/missing.json?status=404&body=%7B%22error%22%3A1%7D&type=application/json", .get, nil),
            ("/api/echo?echo=1", .post, Data("{\"n\":1}".utf8)),
            ("/api/echo?echo=1", .post, Data("{\"n\":2}".utf8)),
            ("/gone?status=410&body=gone", .head, nil),
        ]
        var recorded: [(status: HTTPResponse.Status?, body: Data)] = []
        for (path, method, body) in requests {
            let result = try await live.run(
                "app://localhost\(path)", method: method, headerFields: [.contentType: "application/json"],
                body: body.map { .bytes($0) } ?? .empty)
            #expect(result.isFinished, "\(path): \(result.events)")
            recorded.append((result.status, result.body))
        }
        #expect(recorded[0].body == Data("<h1>hello</h1>".utf8))
        #expect(recorded[2].body == Self.originPattern(count: 300_000))
        #expect(recorded[3].status == .notFound)
        #expect(recordedText(recorded[4].body).contains("{\\\"n\\\":1}"))
        #expect(recorder.recordedCount == requests.count)
        #expect(recorder.lastError == nil)

        // What the file holds: text as text, binary as base64, the large body beside the file.
        let archive = try HARArchive(contentsOf: harFile)
        #expect(archive.entries.count == requests.count)
        #expect(archive.entries[0].response.content.text == "<h1>hello</h1>")
        #expect(archive.entries[0].response.content.encoding == nil)
        #expect(archive.entries[1].response.content.encoding == "base64")
        let sideFile = try #require(archive.entries[2].response.content.file)
        #expect(archive.entries[2].response.content.text == nil)
        #expect(directory.fileNames.contains(sideFile))
        #expect(archive.entries[4].request.postData?.text == "{\"n\":1}")
        #expect(archive.entries[0].timings.wait >= 0 && archive.entries[0].timings.dns == -1)
        // Every member HAR 1.2 requires, as a strict validator (the HAR schema) checks.
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: harFile)) as? [String: Any])
        let log = try #require(json["log"] as? [String: Any])
        #expect(["version", "creator", "entries"].allSatisfy { log[$0] != nil })
        for case let entry as [String: Any] in try #require(log["entries"] as? [Any]) {
            let missing = ["startedDateTime", "time", "request", "response", "cache", "timings"].filter {
                entry[$0] == nil
            }
            #expect(missing.isEmpty, "an entry lacks \(missing)")
            let request = try #require(entry["request"] as? [String: Any])
            let response = try #require(entry["response"] as? [String: Any])
            let timings = try #require(entry["timings"] as? [String: Any])
            #expect(
                ["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"]
                    .allSatisfy { request[$0] != nil })
            #expect(
                [
                    "status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL",
                    "headersSize", "bodySize",
                ].allSatisfy { response[$0] != nil })
            #expect(["send", "wait", "receive"].allSatisfy { timings[$0] != nil })
        }

        origin.stop()
        #expect(!origin.isReachable)

        let replay = try HARReplayHandler(contentsOf: harFile)
        let offline = try ScriptedEngine(serving: replay)
        for (index, (path, method, body)) in requests.enumerated() {
            let result = try await offline.run(
                "app://localhost\(path)", method: method, headerFields: [.contentType: "application/json"],
                body: body.map { .bytes($0) } ?? .empty)
            #expect(result.status == recorded[index].status, "\(path)")
            #expect(result.body == recorded[index].body, "\(path)")
            #expect(result.violations.isEmpty)
        }
    }

    @Test func aPostIsMatchedByItsBody() async throws {
        let replay = try HARReplayHandler(
            archive: HARArchive(
                log: HARLog(entries: [
                    Self.entry("POST", "https://api.example/search", body: "q=cats", answer: "cats"),
                    Self.entry("POST", "https://api.example/search", body: "q=dogs", answer: "dogs"),
                    Self.entry("GET", "https://api.example/search", answer: "get"),
                ])))
        let engine = try ScriptedEngine(serving: replay)
        for (body, expected) in [("q=dogs", "dogs"), ("q=cats", "cats")] {
            let result = try await engine.run(
                "app://api.example/search", method: .post,
                headerFields: [.contentType: "application/x-www-form-urlencoded"], body: .bytes(Data(body.utf8)))
            #expect(result.bodyString == expected)
        }
        #expect(try await engine.run("app://api.example/search").bodyString == "get")
        let unknown = try await engine.run(
            "app://api.example/search", method: .post, body: .bytes(Data("q=birds".utf8)))
        #expect(unknown.status == nil)
        #expect(unknown.failure?.contains("no entry for POST app://api.example/search") == true, "\(unknown.events)")
    }

    @Test func updateModeRecordsWhatIsMissingAndReplaysWhatIsPresent() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let harFile = directory.appending("update.har")
        let upstream = CountingHandler(
            ClosureHandler { request, writer in
                try await writer.respond(.ok, mimeType: "text/plain", body: Data("live \(request.path)".utf8))
                return .handled
            })
        // A first run records /a.
        _ = try await ScriptedEngine(serving: HARRecorder(upstream, to: harFile)).run("app://localhost/a")
        #expect(upstream.calls == 1)

        let updating = try HARReplayHandler(updating: harFile, recordingFrom: upstream)
        let engine = try ScriptedEngine(serving: updating)
        #expect(try await engine.run("app://localhost/a").bodyString == "live /a")
        #expect(upstream.calls == 1)  // replayed
        #expect(try await engine.run("app://localhost/b").bodyString == "live /b")
        #expect(upstream.calls == 2)  // missing: fetched and recorded
        #expect(try await engine.run("app://localhost/b?").bodyString == "live /b")
        #expect(upstream.calls == 2)  // now present
        #expect(updating.recordedCount == 1)

        let reread = try HARArchive(contentsOf: harFile)
        #expect(reread.entries.map(\.request.url) == ["app://localhost/a", "app://localhost/b"])
        let offline = try ScriptedEngine(serving: HARReplayHandler(contentsOf: harFile))
        #expect(try await offline.run("app://localhost/b").bodyString == "live /b")
    }

    @Test func aRecorderCanAppendToAnExistingFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let harFile = directory.appending("append.har")
        let first = HARRecorder(StaticHandler("one"), to: harFile)
        try first.write()
        #expect(try HARArchive(contentsOf: harFile).entries.isEmpty)
        _ = try await ScriptedEngine(serving: first).run("app://localhost/1")
        let second = try HARRecorder(StaticHandler("two"), appendingTo: harFile)
        _ = try await ScriptedEngine(serving: second).run("app://localhost/2")
        let archive = try HARArchive(contentsOf: harFile)
        #expect(archive.entries.map(\.request.url) == ["app://localhost/1", "app://localhost/2"])
        #expect(archive.entries.map(\.response.content.text) == ["one", "two"])
        #expect(directory.fileNames == ["append.har"])  // no temporary file left behind
    }

    /// A browser's requests overlap: a large download started first may complete after a small
    /// request started later. The file lists them in the order they started (HAR 1.2's preferred
    /// order, and what Playwright writes), not the order they completed, and replay still finds each.
    @Test func entriesAreInTheOrderTheirRequestsStarted() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let harFile = directory.appending("overlap.har")
        let (released, release) = AsyncStream<Void>.makeStream()
        let (firstStarted, startFirst) = AsyncStream<Void>.makeStream()
        let handler = ClosureHandler { request, writer in
            if request.url.path == "/first" {
                startFirst.yield()
                for await _ in released { break }  // completes only once /second has
            }
            try await writer.respond(.ok, body: Data("body of \(request.url.path)".utf8))
            return .handled
        }
        let recorder = HARRecorder(handler, to: harFile)
        let engine = try ScriptedEngine(serving: recorder)
        async let first = engine.run("app://localhost/first")
        // /first has started (and blocks) before /second is asked for.
        for await _ in firstStarted { break }
        #expect(try await engine.run("app://localhost/second").bodyString == "body of /second")
        #expect(try HARArchive(contentsOf: harFile).entries.map(\.request.url) == ["app://localhost/second"])
        release.yield()
        #expect(try await first.bodyString == "body of /first")

        let archive = try HARArchive(contentsOf: harFile)
        #expect(archive.entries.map(\.request.url) == ["app://localhost/first", "app://localhost/second"])
        #expect(archive.entries.map(\.response.content.text) == ["body of /first", "body of /second"])
        #expect(archive.entries[0].startedDateTime <= archive.entries[1].startedDateTime)
        let offline = try ScriptedEngine(serving: HARReplayHandler(contentsOf: harFile))
        #expect(try await offline.run("app://localhost/first").bodyString == "body of /first")
        #expect(try await offline.run("app://localhost/second").bodyString == "body of /second")
    }

    /// A redirect on the page's own origin (what the network handler makes of an origin's
    /// redirect to itself) is recorded on the origin the HAR records, where a replay in the browser
    /// must send the page; a redirect elsewhere as it came.
    @Test(arguments: [
        ("app://localhost/next?a=1#top", "http://127.0.0.1:8080/next?a=1#top"),
        ("APP://LOCALHOST/upper", "http://127.0.0.1:8080/upper"),
        ("/relative", "/relative"),
        ("https://sign-in.example/login", "https://sign-in.example/login"),
        ("app://other-host/x", "app://other-host/x"),
    ])
    func aRedirectOnThePagesOriginIsRecordedAndReplayedWhereThePageIs(location: String, recorded: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let harFile = directory.appending("redirect.har")
        let redirect = StaticHandler("", status: .found, headerFields: [.location: location])
        let options = HARRecordingOptions(url: .origin(URL(string: "http://127.0.0.1:8080")!))
        _ = try await ScriptedEngine(serving: HARRecorder(redirect, to: harFile, options: options))
            .run("app://localhost/sign-in")
        let entry = try #require(try HARArchive(contentsOf: harFile).entries.first)
        #expect(entry.request.url == "http://127.0.0.1:8080/sign-in")
        #expect(entry.response.redirectURL == recorded)
        #expect(entry.response.headers.filter { $0.name.lowercased() == "location" }.map(\.value) == [recorded])

        // Replayed under the app's scheme, matched on the HAR's page origin: a `Location` on that
        // origin comes back on the request's, where the page is; any other as recorded.
        let replay = try HARReplayHandler(
            contentsOf: harFile, configuration: .init(matching: HARMatching(origin: .page)))
        let replayed = try await ScriptedEngine(serving: replay).run("app://localhost/sign-in")
        let expected = recorded.hasPrefix("http://127.0.0.1:8080/") ? location.lowercasedOrigin : recorded
        #expect(replayed.response?.headerFields[.location] == expected)
    }

    @Test func aFiftyMebibyteBodyIsStoredBesideTheHARFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let harFile = directory.appending("big.har")
        let size = 50 << 20
        // A pattern whose period (a prime) does not divide a mebibyte, so misplaced bytes show.
        let tile = Data((0..<65_537).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) })
        var body = Data(capacity: size)
        while body.count < size { body.append(tile.prefix(size - body.count)) }
        let source = StaticHandler(body, mimeType: "application/octet-stream", chunkSize: 1 << 20)
        let recorder = HARRecorder(source, to: harFile)
        let engine = try ScriptedEngine(serving: recorder, timeout: TestTiming.scaled(.seconds(120)))
        let live = try await engine.run("app://localhost/media/big.bin")
        #expect(live.body.count == size)
        // The same body again is stored once.
        _ = try await engine.run("app://localhost/media/copy.bin")
        #expect(recorder.recordedCount == 2)

        let archive = try HARArchive(contentsOf: harFile)
        let name = try #require(archive.entries[0].response.content.file)
        #expect(name.range(of: #"^[0-9a-f]{16}-52428800\.bin$"#, options: .regularExpression) != nil, "\(name)")
        #expect(archive.entries[1].response.content.file == name)
        #expect(archive.entries[0].response.content.size == size)
        #expect(archive.entries[0].response.content.text == nil)
        #expect(Set(directory.fileNames) == ["big.har", name])
        let harSize = try #require(try FileManager.default.attributesOfItem(atPath: harFile.path)[.size] as? Int)
        #expect(harSize < 16 << 10)

        let replay = try ScriptedEngine(
            serving: HARReplayHandler(contentsOf: harFile), timeout: TestTiming.scaled(.seconds(120)))
        let replayed = try await replay.run("app://localhost/media/big.bin")
        #expect(replayed.status == .ok)
        #expect(replayed.response?.expectedContentLength == Int64(size))
        #expect(replayed.body == body)
        let range = try await replay.run(
            "app://localhost/media/big.bin", headerFields: [.range: "bytes=40000000-40000999"])
        #expect(range.status == .partialContent)
        #expect(range.body == body[40_000_000..<40_001_000])
        #expect(range.response?.headerFields[.contentRange] == "bytes 40000000-40000999/\(size)")
    }

    @Test func rangesAreCutFromTheRecordedFullBody() async throws {
        let letters = String((0..<1000).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
        let replay = try HARReplayHandler(
            archive: HARArchive(
                log: HARLog(entries: [Self.entry("GET", "https://site.example/letters.txt", answer: letters)])))
        let engine = try ScriptedEngine(serving: replay)
        let single = try await engine.run("app://site.example/letters.txt", headerFields: [.range: "bytes=2-5"])
        #expect(single.status == .partialContent)
        #expect(single.bodyString == "cdef")
        #expect(single.response?.headerFields[.contentRange] == "bytes 2-5/1000")
        #expect(single.response?.headerFields[.contentLength] == "4")

        let suffix = try await engine.run("app://site.example/letters.txt", headerFields: [.range: "bytes=-3"])
        #expect(suffix.bodyString == String(letters.suffix(3)))

        let multi = try await engine.run("app://site.example/letters.txt", headerFields: [.range: "bytes=0-1,10-11"])
        #expect(multi.status == .partialContent)
        #expect(multi.response?.headerFields[.contentType]?.hasPrefix("multipart/byteranges; boundary=") == true)
        #expect(multi.bodyString.contains("Content-Range: bytes 0-1/1000\r\n\r\nab"))
        #expect(multi.bodyString.contains("Content-Range: bytes 10-11/1000\r\n\r\nkl"))
        #expect(Int(multi.response?.headerFields[.contentLength] ?? "") == multi.body.count)

        let unsatisfiable = try await engine.run(
            "app://site.example/letters.txt", headerFields: [.range: "bytes=5000-6000"])
        #expect(unsatisfiable.status == .rangeNotSatisfiable)
        #expect(unsatisfiable.response?.headerFields[.contentRange] == "bytes */1000")
        #expect(unsatisfiable.body.isEmpty)

        let malformed = try await engine.run("app://site.example/letters.txt", headerFields: [.range: "bytes=9-2"])
        #expect(malformed.status == .ok)
        #expect(malformed.body.count == 1000)

        let head = try await engine.run("app://site.example/letters.txt", method: .head)
        #expect(head.status == .ok)
        #expect(head.response?.headerFields[.contentLength] == "1000")
        #expect(head.body.isEmpty)
    }

    @Test func matchingIgnoresQueryOrderAndPrefersTheBestHeaderMatch() async throws {
        let archive = HARArchive(
            log: HARLog(entries: [
                Self.entry("GET", "https://site.example/list?a=1&b=2", answer: "first"),
                Self.entry(
                    "GET", "https://site.example/list?b=2&a=1", headers: ["Accept-Language": "fr"], answer: "fr"),
                Self.entry(
                    "GET", "https://site.example/list?a=1&b=2", headers: ["Accept-Language": "de"], answer: "de"),
                Self.entry("GET", "http://site.example/page", answer: "http"),
                Self.entry("GET", "app://site.example/page", answer: "app"),
            ]))
        let engine = try ScriptedEngine(serving: HARReplayHandler(archive: archive))
        #expect(try await engine.run("app://site.example/list?b=2&a=1").bodyString == "first")
        #expect(
            try await engine.run("app://site.example/list?b=2&a=1", headerFields: [.acceptLanguage: "de"]).bodyString
                == "de")
        #expect(try await engine.run("app://site.example/page").bodyString == "app")

        var strict = HARReplayHandler.Configuration()
        strict.matching = HARMatching(ignoresQueryOrder: false, headers: [.acceptLanguage])
        let exact = try ScriptedEngine(serving: HARReplayHandler(archive: archive, configuration: strict))
        #expect(
            try await exact.run("app://site.example/list?b=2&a=1", headerFields: [.acceptLanguage: "fr"]).bodyString
                == "fr")
        #expect(
            try await exact.run("app://site.example/list?b=2&a=1", headerFields: [.acceptLanguage: "de"]).status == nil)
    }

    @Test(arguments: [HARReplayHandler.MissingEntryPolicy.pass, .fail, .notFound])
    func whatHappensWithoutAMatchIsConfigurable(policy: HARReplayHandler.MissingEntryPolicy) async throws {
        let replay = try HARReplayHandler(
            archive: HARArchive(), configuration: HARReplayHandler.Configuration(whenMissing: policy))
        let chain = SchemeHandlerChain(replay, StaticHandler("next", name: "next"))
        let result = try await ScriptedEngine(serving: chain).run("app://localhost/nothing")
        switch policy {
        case .pass:
            #expect(result.bodyString == "next")
        case .fail:
            #expect(result.failure == "no HAR entry: no entry for GET app://localhost/nothing")
        case .notFound:
            #expect(result.status == .notFound)
            #expect(result.bodyString.contains("GET app://localhost/nothing"))
        }
    }

    @Test func aStopMidReplayLeavesNothingAfterTheStop() async throws {
        let replay = try HARReplayHandler(
            archive: HARArchive(
                log: HARLog(entries: [
                    Self.entry("GET", "https://site.example/big", answer: String(repeating: "x", count: 300_000))
                ])),
            configuration: HARReplayHandler.Configuration(chunkSize: 10_000))
        let result = try await ScriptedEngine(serving: replay).run(
            "app://site.example/big", stoppingAt: .afterBytes(20_000))
        #expect(result.body.count == 20_000)
        #expect(result.wasStopped)
        #expect(result.violations.isEmpty)
        // The replay never suspends between chunks here (inline delivery), so the core notices the
        // stop at the next write, which it drops and counts: nothing reaches the engine.
        #expect(result.metrics.writesDroppedAfterStop <= 1)
    }

    @Test func bodiesThatCannotBeResolvedNameTheEntry() throws {
        func archive(_ content: HARContent) -> HARArchive {
            HARArchive(
                log: HARLog(entries: [
                    Self.entry("GET", "https://a/ok", answer: "ok"),
                    HAREntry(
                        startedDateTime: "", time: 0, request: HARRequest(method: "GET", url: "https://a/broken"),
                        response: HARResponse(status: 200, content: content)),
                ]))
        }
        let cases: [(HARContent, HARError.Kind)] = [
            (HARContent(size: 3, mimeType: "image/png", text: "***", encoding: "base64"), .invalidBody),
            (HARContent(size: 3, mimeType: "image/png", text: "abc", encoding: "gzip"), .invalidBody),
            (HARContent(size: 3, mimeType: "image/png", file: "../../etc/passwd"), .unsafeBodyFile),
            (HARContent(size: 3, mimeType: "image/png", file: "absent.bin"), .missingBodyFile),
            // A link beside the HAR to a file elsewhere (with no size to check, as Playwright's
            // minimal mode records): never followed.
            (HARContent(size: -1, mimeType: "text/plain", file: "link.txt"), .unsafeBodyFile),
        ]
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let secret = directory.url.appendingPathComponent("elsewhere/secret.txt")
        try FileManager.default.createDirectory(
            at: secret.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: secret)
        try FileManager.default.createSymbolicLink(
            at: directory.url.appendingPathComponent("link.txt"), withDestinationURL: secret)
        for (content, kind) in cases {
            let error = try #require(throws: HARError.self) {
                try HARReplayHandler(archive: archive(content), bodyDirectory: directory.url)
            }
            #expect(error.kind == kind)
            #expect(error.entryIndex == 1)
            #expect(error.entryURL == "https://a/broken")
        }
    }

    // MARK: Helpers

    /// An entry answering `answer` as text, with request headers and a request body.
    static func entry(
        _ method: String, _ url: String, headers: [String: String] = [:], body: String? = nil, answer: String
    ) -> HAREntry {
        HAREntry(
            startedDateTime: "2024-05-01T12:00:00.000Z", time: 1,
            request: HARRequest(
                method: method, url: url, headers: headers.map { HARNameValue(name: $0.key, value: $0.value) },
                postData: body.map { HARPostData(mimeType: "application/x-www-form-urlencoded", text: $0) }),
            response: HARResponse(
                status: 200, statusText: "OK",
                headers: [HARNameValue(name: "Content-Type", value: "text/plain; charset=utf-8")],
                content: HARContent(size: answer.utf8.count, mimeType: "text/plain; charset=utf-8", text: answer)))
    }

    /// The body origin.py sends for `size=`.
    static func originPattern(count: Int) -> Data {
        Data((0..<count).map { UInt8(($0 * 7 + 13) % 251) })
    }
}

private func recordedText(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

extension String {
    /// `APP://LOCALHOST/upper` as `app://localhost/upper`: scheme and host lowercased.
    fileprivate var lowercasedOrigin: String {
        guard let end = range(of: "://").flatMap({ self[$0.upperBound...].firstIndex(of: "/") }) else { return self }
        return self[..<end].lowercased() + self[end...]
    }
}
