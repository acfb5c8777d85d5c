import Foundation
import SchemeKit
import SchemeKitTesting
import Testing

/// What another tool's HARs need: the URLs the page used recorded (Playwright's `route_from_har`
/// matches them), a browser's recording replayed under the app's scheme by path and query against
/// its page origin, and Playwright's `.har.zip`.
@Suite(.timeLimit(.minutes(2)))
struct HARInteropTests {
    @Test func theRecordedURLIsTheRegistrysThePagesOrAMappingsOwn() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cases: [(HARRecordedURL, String)] = [
            (.request, "app://localhost/a%20b/c.js?v=1&w=%2F"),
            (.origin(URL(string: "https://app.localhost")!), "https://app.localhost/a%20b/c.js?v=1&w=%2F"),
            (.origin(URL(string: "http://127.0.0.1:8123/ignored/path")!), "http://127.0.0.1:8123/a%20b/c.js?v=1&w=%2F"),
            (.custom { "https://cdn.example\($0.path)" }, "https://cdn.example/a%20b/c.js"),
        ]
        for (index, (url, expected)) in cases.enumerated() {
            let harFile = directory.appending("\(index).har")
            let recorder = HARRecorder(StaticHandler("x"), to: harFile, options: HARRecordingOptions(url: url))
            _ = try await ScriptedEngine(serving: recorder).run("app://localhost/a%20b/c.js?v=1&w=%2F")
            let entry = try #require(try HARArchive(contentsOf: harFile).entries.first)
            #expect(entry.request.url == expected)
            #expect(entry.request.queryString.map(\.value) == ["1", "/"])  // from the request, whatever the URL
        }
    }

    /// Update mode records with the options' URL, and finds what it recorded under that URL.
    @Test func updateModeMatchesTheURLItRecords() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let harFile = directory.appending("update.har")
        let upstream = CountingHandler(StaticHandler("live"))
        let options = HARRecordingOptions(url: .origin(URL(string: "https://app.localhost")!))
        let engine = try ScriptedEngine(
            serving: HARReplayHandler(updating: harFile, recordingFrom: upstream, options: options))
        #expect(try await engine.run("app://localhost/x.js").bodyString == "live")
        #expect(try await engine.run("app://localhost/x.js").bodyString == "live")
        #expect(upstream.calls == 1)  // the second one replayed
        #expect(try HARArchive(contentsOf: harFile).entries.map(\.request.url) == ["https://app.localhost/x.js"])
    }

    /// A HAR a browser recorded at `http://127.0.0.1:8000/` (Playwright's shape: a page, entries
    /// referring to it), replayed under `app://localhost/` by path and query.
    @Test func aBrowsersRecordingReplaysByPathAndQueryAgainstItsPageOrigin() async throws {
        let archive = HARArchive(
            log: HARLog(
                pages: [HARPage(startedDateTime: "2024-05-01T12:00:00.000Z", id: "page@1", title: "t")],
                entries: [
                    Self.entry("https://cdn.example/lib.js", page: nil, answer: "cdn"),
                    Self.entry("http://127.0.0.1:8000/index.html", page: "page@1", answer: "index"),
                    Self.entry("http://127.0.0.1:8000/api?b=2&a=1", page: "page@1", answer: "api"),
                    Self.entry("https://cdn.example/app.js", page: "page@1", answer: "cdn app"),
                ]))
        var configuration = HARReplayHandler.Configuration(whenMissing: .pass)
        configuration.matching.origin = .page
        let chain = SchemeHandlerChain(
            try HARReplayHandler(archive: archive, configuration: configuration), StaticHandler("directory"))
        let engine = try ScriptedEngine(serving: chain)
        #expect(try await engine.run("app://localhost/index.html").bodyString == "index")
        #expect(try await engine.run("app://localhost/api?a=1&b=2").bodyString == "api")
        // Entries of another origin are not the page's: the rest of the chain answers.
        #expect(try await engine.run("app://localhost/app.js").bodyString == "directory")
        #expect(try await engine.run("app://localhost/lib.js").bodyString == "directory")

        // As requested (the default), app://localhost matches nothing of this HAR.
        let asRequested = try ScriptedEngine(
            serving: SchemeHandlerChain(
                try HARReplayHandler(archive: archive, configuration: .init(whenMissing: .pass)),
                StaticHandler("directory")))
        #expect(try await asRequested.run("app://localhost/index.html").bodyString == "directory")

        // A fixed origin: the CDN's entries.
        configuration.matching.origin = .fixed(URL(string: "https://cdn.example")!)
        let cdn = try ScriptedEngine(serving: HARReplayHandler(archive: archive, configuration: configuration))
        #expect(try await cdn.run("app://localhost/lib.js").bodyString == "cdn")
        #expect(try await cdn.run("app://localhost/index.html").respondingHandler != "har")
    }

    /// Without pages (SchemeKit's own HARs), the page origin is the first entry's.
    @Test func withoutPagesThePageOriginIsTheFirstEntrys() async throws {
        let archive = HARArchive(
            log: HARLog(entries: [
                Self.entry("https://app.localhost/index.html", page: nil, answer: "index"),
                Self.entry("https://app.localhost/a.js", page: nil, answer: "script"),
            ]))
        var configuration = HARReplayHandler.Configuration()
        configuration.matching.origin = .page
        let engine = try ScriptedEngine(serving: HARReplayHandler(archive: archive, configuration: configuration))
        #expect(try await engine.run("app://localhost/a.js").bodyString == "script")
        #expect(try await engine.run("app://elsewhere:99/index.html").bodyString == "index")
    }

    /// Playwright's `.har.zip`: the reader names it in one line; a tool with a zip reader unzips it
    /// into a temporary directory where the HAR finds its body files.
    @Test func aHARZipIsNamedOrUnzipped() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let body = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try body.write(to: directory.appending("0123abcd.bin"))
        let content = HARContent(size: body.count, mimeType: "application/octet-stream", file: "0123abcd.bin")
        let archive = HARArchive(
            log: HARLog(entries: [
                HAREntry(
                    startedDateTime: "", time: 0, request: HARRequest(method: "GET", url: "http://h/blob.bin"),
                    response: HARResponse(status: 200, content: content))
            ]))
        try archive.write(to: directory.appending("har.har"))
        let zip = directory.appending("site.har.zip")
        try Self.shell("cd '\(directory.url.path)' && zip -q site.har.zip har.har 0123abcd.bin")

        let refusal = try #require(throws: HARError.self) { try HARReplayHandler(contentsOf: zip) }
        #expect(refusal.kind == .zipArchive)
        #expect(!refusal.description.contains("\n") && refusal.description.contains("unzip it first"))
        let withoutReader = try HARFileInput(zip, unzip: nil)
        #expect(withoutReader.harFile == zip && withoutReader.temporaryDirectory == nil)

        let input = try HARFileInput(zip) { archive, target in
            try Self.shell("unzip -q '\(archive)' -d '\(target)'")
        }
        let unzipped = try #require(input.temporaryDirectory)
        #expect(input.harFile.lastPathComponent == "har.har")
        let replayed = try await ScriptedEngine(serving: HARReplayHandler(contentsOf: input.harFile))
            .run("app://h/blob.bin")
        #expect(replayed.body == body)
        input.removeTemporaryFiles()
        #expect(!FileManager.default.fileExists(atPath: unzipped.path))

        // A zip without a HAR at its top.
        try Self.shell("cd '\(directory.url.path)' && zip -q other.zip 0123abcd.bin")
        let empty = try #require(throws: HARError.self) {
            try HARFileInput(directory.appending("other.zip")) { archive, target in
                try Self.shell("unzip -q '\(archive)' -d '\(target)'")
            }
        }
        #expect(empty.kind == .invalidArchive && empty.description.contains("holds no .har file"))
        // A plain HAR is read as it is.
        let plain = try HARFileInput(directory.appending("har.har")) { _, _ in Issue.record("not a zip") }
        #expect(plain.harFile == directory.appending("har.har"))
    }

    // MARK: Helpers

    static func entry(_ url: String, page: String?, answer: String) -> HAREntry {
        HAREntry(
            pageref: page, startedDateTime: "2024-05-01T12:00:00.000Z", time: 1,
            request: HARRequest(method: "GET", url: url),
            response: HARResponse(
                status: 200, content: HARContent(size: answer.utf8.count, mimeType: "text/plain", text: answer)))
    }

    struct ShellFailure: Error { let command: String }

    static func shell(_ command: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ShellFailure(command: command) }
    }
}
