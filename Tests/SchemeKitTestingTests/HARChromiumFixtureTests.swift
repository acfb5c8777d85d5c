import Foundation
import SchemeKit
import SchemeKitTesting
import Testing

/// A HAR as Chromium's DevTools exports it (`Tests/Fixtures/HAR/chromium-devtools.har`, written by
/// hand after Chromium 134's format): read, kept on re-encoding, and replayed to an app scheme.
struct HARChromiumFixtureTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/HAR/chromium-devtools.har")

    @Test func chromiumsFieldsAreRead() throws {
        let archive = try HARArchive(contentsOf: Self.fixture)
        #expect(archive.log.creator.name == "WebInspector")
        #expect(archive.log.pages?.first?.onLoad == 300.254)
        #expect(archive.entries.count == 9)
        let document = archive.entries[0]
        #expect(document.resourceType == "document")
        #expect(document.initiator?["type"] == .string("other"))
        #expect(document.response.transferSize == 412)
        #expect(document.request.cookies.count == 2 && document.request.cookies[0].sameSite == "Lax")
        #expect(document.timings.dns == -1)
        #expect(document.timings.custom["_blocked_queueing"] == .number(1.8909999999990759))
        #expect(document.response.custom["_error"] == .null)
        #expect(archive.entries[4].initiator?["stack"]?["parent"]?["description"] == .string("Promise.then"))
        #expect(archive.entries[4].request.postData?.parameters.map(\.name) == ["user", "remember"])
        #expect(archive.entries[3].response.content.text == nil)
        #expect(try HARArchive(data: archive.encoded()) == archive)
    }

    @Test func itReplaysToTheAppScheme() async throws {
        let engine = try ScriptedEngine(serving: HARReplayHandler(contentsOf: Self.fixture))

        // The document: query order ignored, https recorded, app asked; the transfer's own fields gone.
        let document = try await engine.run("app://example.com/?a=1&b=2")
        #expect(document.status == .ok)
        #expect(document.bodyString.hasPrefix("<!doctype html><title>Example</title>"))
        let fields = try #require(document.response?.headerFields)
        #expect(fields[.contentEncoding] == nil)
        #expect(fields[.contentLength] == String(document.body.count))
        #expect(fields[values: .setCookie] == ["a=1; Path=/", "b=2; Path=/; HttpOnly"])
        #expect(fields[values: .vary] == ["Accept-Encoding", "Cookie"])
        #expect(document.response?.mimeType == "text/html")

        let image = try await engine.run("app://example.com/logo.png")
        #expect(image.body.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(image.body.count == 70)

        // A body Chromium did not keep replays empty, with its status and type.
        let script = try await engine.run("app://example.com/app.js")
        #expect(script.status == .ok && script.body.isEmpty)
        #expect(script.response?.headerFields[.contentType] == "text/javascript")

        // The POST recorded as params only matches the same form, in any order.
        let login = try await engine.run(
            "app://example.com/api/login", method: .post,
            headerFields: [.contentType: "application/x-www-form-urlencoded"],
            body: .bytes(Data("remember=on&user=ada".utf8)))
        #expect(login.bodyString == #"{"ok":true,"user":"ada"}"#)
        let stranger = try await engine.run(
            "app://example.com/api/login", method: .post, body: .bytes(Data("user=eve&remember=on".utf8)))
        #expect(stranger.failure == "no HAR entry: no entry for POST app://example.com/api/login")

        #expect(try await engine.run("app://example.com/api/items?sort=name&page=1").bodyString == #"["café","thé"]"#)

        // A request recorded as a network failure fails again.
        let blocked = try await engine.run("app://example.com/tracker.js")
        #expect(blocked.failure?.contains("net::ERR_BLOCKED_BY_CLIENT") == true)

        // The 304 answers only a conditional request.
        #expect(try await engine.run("app://example.com/style.css").bodyString == "body { color: tomato }")
        let revalidated = try await engine.run(
            "app://example.com/style.css", headerFields: [.ifNoneMatch: "\"css-1\""])
        #expect(revalidated.status == .notModified)
        #expect(revalidated.body.isEmpty)
        #expect(
            try await engine.run("app://example.com/style.css", headerFields: [.ifNoneMatch: "W/\"css-1\", \"x\""])
                .status == .notModified)
        // Only for the tag it was recorded for: another version the page kept gets the 200.
        let stale = try await engine.run("app://example.com/style.css", headerFields: [.ifNoneMatch: "\"css-0\""])
        #expect(stale.status == .ok)
        #expect(stale.bodyString == "body { color: tomato }")
    }
}
