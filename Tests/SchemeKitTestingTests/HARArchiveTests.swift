import Foundation
import SchemeKitTesting
import Testing

/// Reading and writing HAR files: round trips, and a typed error naming the entry for every kind
/// of broken file.
struct HARArchiveTests {
    /// Three entries, the second with a body and custom fields.
    static let archive = HARArchive(
        log: HARLog(
            creator: HARCreator(name: "test", version: "1"),
            pages: [HARPage(startedDateTime: "2024-05-01T12:00:00.000Z", id: "page_1", title: "t", onLoad: 12.5)],
            entries: (0..<3).map { index in
                HAREntry(
                    pageref: "page_1", startedDateTime: "2024-05-01T12:00:0\(index).000Z", time: 1.25,
                    request: HARRequest(
                        method: "GET", url: "https://example.com/\(index)",
                        headers: [HARNameValue(name: "Accept", value: "*/*")]),
                    response: HARResponse(
                        status: 200, statusText: "OK",
                        headers: [
                            HARNameValue(name: "Set-Cookie", value: "a=1"),
                            HARNameValue(name: "Set-Cookie", value: "b=2"),
                        ],
                        content: HARContent(
                            size: 11, mimeType: "text/plain", text: "entry \(index) \"é\"\n\u{1}"),
                        custom: ["_transferSize": .number(300)]),
                    timings: HARTimings(blocked: -1, dns: -1, connect: -1, send: 0.5, wait: 10, receive: 0.25, ssl: -1),
                    custom: ["_resourceType": .string("fetch"), "_initiator": .object(["type": .string("script")])])
            }))

    @Test func anArchiveReadsBackEqual() throws {
        let data = try Self.archive.encoded()
        let reread = try HARArchive(data: data)
        #expect(reread == Self.archive)
        #expect(try reread.encoded() == data)
        #expect(reread.entries[1].resourceType == "fetch")
        #expect(reread.entries[1].response.transferSize == 300)
        #expect(reread.entries[1].response.headers.filter { $0.name == "Set-Cookie" }.count == 2)
    }

    @Test func aTruncatedFileNamesTheEntryItEndsIn() throws {
        let data = try Self.archive.encoded()
        let text = String(decoding: data, as: UTF8.self)
        // Cut inside entry 2's response, after its request URL was read.
        let second = try #require(text.range(of: "https://example.com/2"))
        let cut = try #require(text.range(of: "\"status\"", range: second.upperBound..<text.endIndex))
        let truncated = Data(text[..<cut.lowerBound].utf8)
        let error = try #require(throws: HARError.self) { try HARArchive(data: truncated) }
        #expect(error.kind == .truncated)
        #expect(error.entryIndex == 2)
        #expect(error.entryURL == "https://example.com/2")
        #expect(error.byteOffset == truncated.count)
        #expect(error.description.hasPrefix("truncated HAR: entry 2 (https://example.com/2), at byte "))
    }

    @Test func everyPrefixOfAFileIsATypedErrorNeverACrash() throws {
        let data = try Self.archive.encoded()
        for length in 0..<data.count {
            #expect(throws: HARError.self) { try HARArchive(data: data.prefix(length)) }
        }
    }

    @Test func aCorruptedByteNamesTheEntry() throws {
        var bytes = [UInt8](try Self.archive.encoded())
        let text = String(decoding: bytes, as: UTF8.self)
        let first = try #require(text.range(of: "https://example.com/1"))
        let comma = try #require(text.range(of: "\"response\"", range: first.upperBound..<text.endIndex))
        bytes[text.utf8.distance(from: text.startIndex, to: comma.lowerBound)] = UInt8(ascii: "#")
        let error = try #require(throws: HARError.self) { try HARArchive(data: Data(bytes)) }
        #expect(error.kind == .malformedJSON)
        #expect(error.entryIndex == 1)
        #expect(error.entryURL == "https://example.com/1")
    }

    @Test(arguments: [
        (
            #"{"log":{"entries":[{"request":{"method":"GET","url":"https://a/"},"response":{"status":"200"}}]}}"#,
            "response.status"
        ),
        (#"{"log":{"entries":[{"request":{"method":"GET","url":"https://a/"},"response":{}}]}}"#, "response.status"),
        (#"{"log":{"entries":[{"request":{"url":"https://a/"},"response":{"status":200}}]}}"#, "request.method"),
        (
            #"{"log":{"entries":[{"request":{"method":"GET","url":"https://a/","headers":{}},"response":{"status":200}}]}}"#,
            "request.headers"
        ),
        (
            #"{"log":{"entries":[{"request":{"method":"GET","url":"https://a/"},"response":{"status":200.5}}]}}"#,
            "response.status"
        ),
        // Numbers and strings JSON allows but a Swift value cannot hold, where they are read.
        (
            #"{"log":{"entries":[{"request":{"method":"GET","url":"https://a/"},"response":{"status":2e999}}]}}"#,
            "response.status"
        ),
        (
            #"{"log":{"entries":[{"request":{"method":"GET","url":"https://a/"},"response":{"status":01}}]}}"#,
            "response.status"
        ),
        (
            #"{"log":{"entries":[{"request":{"method":"GET","url":"https://a/"},"response":{"status":200},"_x":[1e999]}]}}"#,
            "_x[0]"
        ),
        (
            #"{"log":{"entries":[{"request":{"method":"GET","url":"https://a/"},"response":{"status":200,"statusText":"\x"}}]}}"#,
            "response.statusText"
        ),
    ])
    func aMistypedFieldNamesTheEntryAndTheField(json: String, field: String) throws {
        let error = try #require(throws: HARError.self) { try HARArchive(data: Data(json.utf8)) }
        #expect(error.kind == .invalidEntry)
        #expect(error.entryIndex == 0)
        #expect(error.field == field)
        if !field.hasPrefix("request") { #expect(error.entryURL == "https://a/") }
    }

    @Test(arguments: [
        ("", HARError.Kind.truncated), ("{", .truncated), ("[]", .invalidArchive), (#"{"log":{}}"#, .invalidArchive),
        (#"{"log":{"entries":{}}}"#, .invalidArchive), ("nul", .truncated), ("{} {}", .malformedJSON),
        (#"{"log":{"entries":[]},"a":[}"#, .malformedJSON), (String(repeating: "[", count: 10_000), .malformedJSON),
        // 513 deep trapped in Foundation's scanner (FuzzHAR): refused before parsing.
        (String(repeating: "[", count: 513), .malformedJSON),
        ("\u{FEFF}{\"log\":{\"entries\":[]}}", .invalidArchive),
        // Foundation checks a number's or a string's syntax where the value is read: a `log` that is
        // a number is no log, and a member the model does not read is not looked into.
        ("{\"log\":1e999}", .invalidArchive), (#"{"a":01}"#, .invalidArchive), (#"{"a":"\x"}"#, .invalidArchive),
        (#"{"log":{"entries":[],"_x":1e999}}"#, .invalidArchive),
    ])
    func brokenFilesGiveTypedErrors(json: String, kind: HARError.Kind) throws {
        if kind == .invalidArchive, json.hasPrefix("\u{FEFF}") {
            // A byte order mark is skipped: this one is a valid, empty archive.
            #expect(try HARArchive(data: Data(json.utf8)).entries.isEmpty)
            return
        }
        let error = try #require(throws: HARError.self) { try HARArchive(data: Data(json.utf8)) }
        #expect(error.kind == kind, "\(error)")
    }

    @Test func unicodeEscapesAndNullsAreRead() throws {
        let json = #"""
            {"log":{"version":null,"entries":[{"pageref":null,"request":{"method":"GET","url":"https://a/\u00e9","cookies":null},
            "response":{"status":200,"content":{"size":2,"mimeType":"text/plain","text":"\ud83d\ude00x"}},"_x":[1,true,null,{"y":-0.5e1}]}]}}
            """#
        let archive = try HARArchive(data: Data(json.utf8))
        #expect(archive.entries[0].request.url == "https://a/é")
        #expect(archive.entries[0].response.content.text == "😀x")
        #expect(
            archive.entries[0].custom["_x"] == .array([.number(1), .bool(true), .null, .object(["y": .number(-5)])]))
        #expect(try HARArchive(data: archive.encoded()) == archive)

        // A lone surrogate (`\ud800` without its low half) is no Unicode text: a typed error at its field.
        let lone = json.replacingOccurrences(of: #"\ud83d\ude00x"#, with: #"\ud800x"#)
        let error = try #require(throws: HARError.self) { try HARArchive(data: Data(lone.utf8)) }
        #expect(error.kind == .invalidEntry)
        #expect(error.entryIndex == 0 && error.field == "response.content.text")
    }

    /// Foundation's parser refuses nesting deeper than 512 levels; anything up to that reads and
    /// re-encodes, on a task's stack as well as the main thread's.
    @Test func deeplyNestedCustomValuesReadAndReencode() async throws {
        let depth = 500
        let json =
            #"{"log":{"entries":[{"request":{"method":"GET","url":"https://a/"},"response":{"status":200},"_deep":"#
            + String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth) + "}]}}"
        let archive = try await Task.detached { try HARArchive(data: Data(json.utf8)) }.value
        var value = try #require(archive.entries[0].custom["_deep"])
        var levels = 0
        while case .array(let elements) = value, let first = elements.first {
            value = first
            levels += 1
        }
        #expect(levels == depth && value == .number(1))
        #expect(try HARArchive(data: archive.encoded()) == archive)
    }

    @Test func aValueJSONCannotHoldIsATypedErrorNamingTheEntry() throws {
        var archive = Self.archive
        archive.entries[2].timings.wait = .infinity
        let error = try #require(throws: HARError.self) { try archive.encoded() }
        #expect(error.kind == .invalidEntry)
        #expect(error.entryIndex == 2 && error.entryURL == "https://example.com/2")
        #expect(error.field == "timings.wait")
        #expect(throws: HARError.self) { try archive.write(to: URL(fileURLWithPath: "/nonexistent/never.har")) }
    }

    /// Playwright's default `.har.zip` (the HAR and its body files, zipped) is named as such, in one
    /// line, rather than reported as a JSON error.
    @Test func aZipArchiveIsNamedAsOne() throws {
        let zip = Data([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00]) + Data(count: 64)
        let error = try #require(throws: HARError.self) { try HARArchive(data: zip) }
        #expect(error.kind == .zipArchive)
        #expect(error.description.contains("zip archive (Playwright's .har.zip)"))
        #expect(error.description.contains("unzip it first"))
        #expect(!error.description.contains("\n"))
    }
}
