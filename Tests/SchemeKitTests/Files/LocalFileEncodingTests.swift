import Foundation
import HTTPTypes
import SchemeKitTesting
import Synchronization
import Testing

@testable import SchemeKit

extension FilesTests {
    /// On-the-fly content codings (`Configuration.encoders`), negotiated per request and kept in the
    /// body cache, and the body cache's locations for a browser's request (`Accept-Encoding`,
    /// validators), which must cost one `lstat` like a bare request.
    @Suite(.timeLimit(.minutes(1)))
    struct LocalFileEncodingTests {
        /// An encoder that counts its calls and marks its output (`gzip:` + the body reversed).
        final class CountingEncoder: SchemeContentEncoder {
            let contentCoding = "gzip"
            let calls = Atomic<Int>(0)
            func encode(_ body: Data) throws -> Data {
                calls.add(1, ordering: .relaxed)
                return Data("gzip:".utf8) + Data(body.reversed())
            }
        }

        static let browser: HTTPFields = [
            .acceptEncoding: "gzip, deflate, br, zstd",
            .accept: "*/*",
            .userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36",
            .acceptLanguage: "en-GB,en;q=0.9",
            HTTPField.Name("Sec-Fetch-Dest")!: "script",
            HTTPField.Name("Sec-Fetch-Mode")!: "no-cors",
            HTTPField.Name("Sec-Fetch-Site")!: "same-origin",
        ]

        static let script = String(repeating: "console.log('SchemeKit');\n", count: 40)  // 1,040 bytes

        static func handler(_ root: URL, _ encoder: CountingEncoder, precompressed: Bool = false) -> LocalFileHandler {
            LocalFileHandler(
                configuration: .init(
                    root: .directory(root), bodyCache: .init(), precompressed: precompressed ? [.brotli, .gzip] : [],
                    encoders: [encoder]))
        }

        /// What an engine on an event loop asks (`registry.immediateResponse`), with the files the
        /// handler opened meanwhile.
        static func immediate(_ handler: LocalFileHandler, _ url: String, headers: HTTPFields = browser) throws -> (
            SchemeCollectedResponse?, opened: Int
        ) {
            let registry = SchemeRegistry()
            try registry.register(handler, for: "app")
            let probe = FileReadProbe()
            let request = try SchemeRequest(url, headerFields: headers)
            let answer = FileReadProbe.$current.withValue(probe) { registry.immediateResponse(for: request) }
            return (answer, probe.openedFiles.count)
        }

        @Test func aCompressibleFileIsEncodedOnceKeptAndServedAsAnotherRepresentation() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("app.js", Self.script)
            let encoder = CountingEncoder()
            let handler = Self.handler(fixture.root, encoder)
            let first = try await exchange(handler, "app://localhost/app.js", headers: Self.browser)
            #expect(first.status == 200)
            #expect(first.headers[.contentEncoding] == "gzip")
            #expect(first.headers[.vary] == "Accept-Encoding")
            #expect(first.headers[.eTag]?.hasPrefix("W/\"") == true, "the identity's tag, weak")
            #expect(first.headers[.acceptRanges] == nil, "no ranges of the encoded bytes")
            #expect(first.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(first.body == Data("gzip:".utf8) + Data(Data(Self.script.utf8).reversed()))
            #expect(first.headers[.contentLength] == String(first.body.count))
            // Again, from the event loop: the kept variant, with no encoding and no file opened.
            for _ in 0..<3 {
                let (answer, opened) = try Self.immediate(handler, "app://localhost/app.js")
                #expect(answer?.body == first.body)
                #expect(answer?.head.headerFields[.eTag] == first.headers[.eTag])
                #expect(answer?.representationID != nil)
                #expect(opened == 0, "one lstat, no open")
            }
            #expect(encoder.calls.load(ordering: .relaxed) == 1)
            // The identity representation for a client without gzip, which also says it varies.
            let plain = try await exchange(handler, "app://localhost/app.js", headers: [.acceptEncoding: "identity"])
            #expect(plain.text == Self.script)
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(plain.headers[.vary] == "Accept-Encoding")
            #expect(plain.headers[.eTag] == first.headers[.eTag].map { String($0.dropFirst(2)) })
        }

        @Test func validatorsHeadAndRangesOnTheEncodedRepresentation() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("app.js", Self.script)
            let encoder = CountingEncoder()
            let handler = Self.handler(fixture.root, encoder)
            let full = try await exchange(handler, "app://localhost/app.js", headers: Self.browser)
            let tag = try #require(full.headers[.eTag])
            var revalidate = Self.browser
            revalidate[.ifNoneMatch] = tag
            let (notModified, opened) = try Self.immediate(handler, "app://localhost/app.js", headers: revalidate)
            #expect(notModified?.head.status == .notModified)
            #expect(notModified?.head.headerFields[.eTag] == tag)
            #expect(notModified?.head.headerFields[.vary] == "Accept-Encoding")
            #expect(notModified?.body.isEmpty == true)
            #expect(opened == 0, "a revalidation takes the one lstat too")
            // The identity's strong tag matches too (If-None-Match compares weakly).
            revalidate[.ifNoneMatch] = String(tag.dropFirst(2))
            #expect(
                try Self.immediate(handler, "app://localhost/app.js", headers: revalidate).0?.head.status
                    == .notModified)
            var since = Self.browser
            let modified = try #require(full.headers[.lastModified])
            since[.ifModifiedSince] = modified
            #expect(
                try Self.immediate(handler, "app://localhost/app.js", headers: since).0?.head.status == .notModified)
            let head = try await exchange(handler, "app://localhost/app.js", method: .head, headers: Self.browser)
            #expect(head.headers[.contentEncoding] == "gzip")
            #expect(head.headers[.contentLength] == full.headers[.contentLength])
            #expect(head.body.isEmpty)
            var range = Self.browser
            range[.range] = "bytes=0-6"
            let partial = try await exchange(handler, "app://localhost/app.js", headers: range)
            #expect(partial.status == 206)
            #expect(partial.headers[.contentEncoding] == nil)
            #expect(partial.text == "console")
            #expect(encoder.calls.load(ordering: .relaxed) == 1)
        }

        /// A failed precondition is a plain-text 412 that says no coding, whatever the file's
        /// representation (a browser reading `Content-Encoding: gzip` on plain text reports
        /// `ERR_CONTENT_DECODING_FAILED`, not the 412); `If-Match` with the file's strong tag holds
        /// for its on-the-fly coding too.
        @Test func preconditionsOnAnEncodedRepresentation() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("app.js", Self.script)
            try fixture.write("pre.js", Self.script)
            try fixture.write("pre.js.br", "brotli bytes")
            let handler = Self.handler(fixture.root, CountingEncoder(), precompressed: true)
            let identity = try await exchange(handler, "app://localhost/app.js", headers: [:])
            let strong = try #require(identity.headers[.eTag])
            for (path, coding) in [("app.js", "gzip"), ("pre.js", "br")] {
                // Before the body is kept, and after (the immediate half answers then).
                for _ in 0..<2 {
                    for failing: HTTPFields in [
                        [.ifMatch: "\"nope\""], [.ifUnmodifiedSince: "Sat, 01 Jan 2000 00:00:00 GMT"],
                    ] {
                        var fields = Self.browser
                        fields.append(contentsOf: failing)
                        let refused = try await exchange(handler, "app://localhost/\(path)", headers: fields)
                        #expect(refused.status == 412, "\(path) \(failing)")
                        #expect(refused.headers[.contentEncoding] == nil, "\(path) \(failing)")
                        #expect(refused.text == "Precondition Failed\n")
                        #expect(refused.headers[.contentLength] == "20")
                    }
                    #expect(
                        try await exchange(handler, "app://localhost/\(path)", headers: Self.browser)
                            .headers[.contentEncoding] == coding)
                }
            }
            var matching = Self.browser
            matching[.ifMatch] = strong
            let held = try await exchange(handler, "app://localhost/app.js", headers: matching)
            #expect(held.status == 200)
            #expect(held.headers[.contentEncoding] == "gzip")
        }

        @Test func whatIsNotWorthEncodingIsSentAsItIs() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("tiny.js", "let x = 1;")
            try fixture.write("logo.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(count: 2000))
            let encoder = CountingEncoder()
            let handler = Self.handler(fixture.root, encoder)
            let tiny = try await exchange(handler, "app://localhost/tiny.js", headers: Self.browser)
            #expect(tiny.headers[.contentEncoding] == nil && tiny.text == "let x = 1;")
            let png = try await exchange(handler, "app://localhost/logo.png", headers: Self.browser)
            #expect(png.headers[.contentEncoding] == nil && png.body.count == 2008)
            let (again, _) = try Self.immediate(handler, "app://localhost/logo.png")
            #expect(again?.head.headerFields[.contentEncoding] == nil)
            #expect(encoder.calls.load(ordering: .relaxed) == 0)
        }

        @Test func aPrecompressedSiblingWinsOverTheEncoder() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("app.js", Self.script)
            try fixture.write("app.js.br", "brotli bytes")
            let encoder = CountingEncoder()
            let handler = Self.handler(fixture.root, encoder, precompressed: true)
            let answer = try await exchange(handler, "app://localhost/app.js", headers: Self.browser)
            #expect(answer.headers[.contentEncoding] == "br")
            #expect(answer.text == "brotli bytes")
            let (again, opened) = try Self.immediate(handler, "app://localhost/app.js")
            #expect(again?.head.headerFields[.contentEncoding] == "br")
            #expect(again.map { String(decoding: $0.body, as: UTF8.self) } == "brotli bytes")
            #expect(opened == 0, "the sibling's location is remembered too")
            // Without br, gzip on the fly.
            let gzip = try await exchange(handler, "app://localhost/app.js", headers: [.acceptEncoding: "gzip"])
            #expect(gzip.headers[.contentEncoding] == "gzip")
            #expect(encoder.calls.load(ordering: .relaxed) == 1)
        }

        @Test func aChangedFileIsEncodedAgain() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            let file = try fixture.write("app.js", Self.script)
            let encoder = CountingEncoder()
            let handler = Self.handler(fixture.root, encoder)
            _ = try await exchange(handler, "app://localhost/app.js", headers: Self.browser)
            _ = try Self.immediate(handler, "app://localhost/app.js")
            let changed = Self.script.uppercased()
            try Data(changed.utf8).write(to: file)
            // The remembered location no longer matches: the walk, a read, a new variant.
            let (stale, _) = try Self.immediate(handler, "app://localhost/app.js")
            #expect(stale == nil || stale?.body == Data("gzip:".utf8) + Data(Data(changed.utf8).reversed()))
            let fresh = try await exchange(handler, "app://localhost/app.js", headers: Self.browser)
            #expect(fresh.body == Data("gzip:".utf8) + Data(Data(changed.utf8).reversed()))
            #expect(encoder.calls.load(ordering: .relaxed) == 2)
        }

        /// The single-page fallback decides by the request: a navigation gets the index file,
        /// whatever the last segment looks like (`/v1.2`); a script or image request does not.
        @Test func theSinglePageFallbackDecidesByTheRequest() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("index.html", "spa shell")
            let spa = LocalFileHandler(configuration: .init(root: .directory(fixture.root), singlePageFallback: true))
            let navigate: HTTPFields = [
                HTTPField.Name("Sec-Fetch-Mode")!: "navigate",
                .accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
            ]
            #expect(try await exchange(spa, "app://localhost/releases/v1.2", headers: navigate).text == "spa shell")
            #expect(try await exchange(spa, "app://localhost/users/42", headers: navigate).text == "spa shell")
            let script: HTTPFields = [HTTPField.Name("Sec-Fetch-Mode")!: "no-cors", .accept: "*/*"]
            #expect(try await exchange(spa, "app://localhost/missing.js", headers: script).wasPassed)
            #expect(try await exchange(spa, "app://localhost/users/42", headers: script).wasPassed)
            let json: HTTPFields = [HTTPField.Name("Sec-Fetch-Mode")!: "cors", .accept: "application/json"]
            #expect(try await exchange(spa, "app://localhost/api/v1.2", headers: json).wasPassed)
            // A client without Sec-Fetch-Mode: its Accept decides.
            #expect(
                try await exchange(spa, "app://localhost/v1.2", headers: [.accept: "text/html,*/*;q=0.8"]).text
                    == "spa shell")
            #expect(try await exchange(spa, "app://localhost/v1.2", headers: [.accept: "*/*"]).wasPassed)
            // Neither: the path decides, as before.
            #expect(try await exchange(spa, "app://localhost/users/42").text == "spa shell")
            #expect(try await exchange(spa, "app://localhost/v1.2").wasPassed)
            let byPath = LocalFileHandler(
                configuration: .init(
                    root: .directory(fixture.root), singlePageFallback: true, navigationRule: .extensionless))
            #expect(try await exchange(byPath, "app://localhost/releases/v1.2", headers: navigate).wasPassed)
        }
    }
}
