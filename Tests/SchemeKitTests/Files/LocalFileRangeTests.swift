import Foundation
import HTTPTypes
import SchemeKit
import SchemeKitTesting
import Testing

extension FilesTests {
    /// Range requests through the handler: single, suffix, open, multipart, unsatisfiable, malformed,
    /// If-Range, and offsets beyond 4 GiB.
    @Suite(.timeLimit(.minutes(1)))
    struct LocalFileRangeTests {
        /// 200 000 bytes of a repeating, position-dependent pattern, larger than several chunks.
        static let content = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })

        static func withFixture(chunkSize: Int = 64 * 1024, _ body: (LocalFileHandler) async throws -> Void)
            async throws
        {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("video.bin", content)
            try await body(LocalFileHandler(configuration: .init(root: .directory(fixture.root), chunkSize: chunkSize)))
        }

        static func bytes(_ first: Int, _ last: Int) -> Data { content.subdata(in: first..<(last + 1)) }

        @Test(arguments: [
            ("bytes=0-99", 0, 99),
            ("bytes=100000-", 100_000, 199_999),
            ("bytes=-500", 199_500, 199_999),
            ("bytes=65530-131080", 65_530, 131_080),
            ("bytes=199999-999999", 199_999, 199_999),
        ])
        func singleRange(header: String, first: Int, last: Int) async throws {
            for chunkSize in [64 * 1024, 1000] {
                try await Self.withFixture(chunkSize: chunkSize) { handler in
                    let result = try await exchange(handler, "app://localhost/video.bin", headers: [.range: header])
                    #expect(result.status == 206)
                    #expect(result.headers[.contentRange] == "bytes \(first)-\(last)/200000")
                    #expect(result.headers[.contentLength] == String(last - first + 1))
                    #expect(result.headers[.contentType] == "application/octet-stream")
                    #expect(result.body == Self.bytes(first, last))
                    #expect(result.sink.violations.isEmpty)
                }
            }
        }

        @Test func smallFilesServeRangesFromTheirSingleRead() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("small.txt", "0123456789")
            let handler = LocalFileHandler(root: fixture.root)
            let result = try await exchange(handler, "app://localhost/small.txt", headers: [.range: "bytes=2-4"])
            #expect(result.status == 206)
            #expect(result.text == "234")
            #expect(result.headers[.contentRange] == "bytes 2-4/10")
            #expect(result.headers[.contentType] == "text/plain; charset=utf-8")
        }

        @Test func multipleRangesAreSentAsMultipartByteranges() async throws {
            for chunkSize in [64 * 1024, 4096] {
                try await Self.withFixture(chunkSize: chunkSize) { handler in
                    let result = try await exchange(
                        handler, "app://localhost/video.bin", headers: [.range: "bytes=0-9, 150000-150099, -20"])
                    #expect(result.status == 206)
                    let contentType = try #require(result.headers[.contentType])
                    #expect(contentType.hasPrefix("multipart/byteranges; boundary="))
                    #expect(result.headers[.contentRange] == nil)
                    #expect(result.headers[.contentLength] == String(result.body.count))
                    let boundary = String(contentType.split(separator: "=", maxSplits: 1)[1])
                    let parts = try MultipartParser.parse(result.body, boundary: boundary)
                    #expect(parts.count == 3)
                    let expected = [(0, 9), (150_000, 150_099), (199_980, 199_999)]
                    for (part, (first, last)) in zip(parts, expected) {
                        #expect(part.headers["content-range"] == "bytes \(first)-\(last)/200000")
                        #expect(part.headers["content-type"] == "application/octet-stream")
                        #expect(part.body == Self.bytes(first, last))
                    }
                }
            }
        }

        @Test func unsatisfiableRangesAnswer416() async throws {
            try await Self.withFixture { handler in
                for header in ["bytes=200000-", "bytes=300000-400000", "bytes=-0"] {
                    let result = try await exchange(handler, "app://localhost/video.bin", headers: [.range: header])
                    #expect(result.status == 416, "\(header)")
                    #expect(result.headers[.contentRange] == "bytes */200000")
                    #expect(result.body.count < 100)
                }
            }
        }

        @Test func malformedOrAmplifyingRangesSendTheWholeFile() async throws {
            try await Self.withFixture { handler in
                let many = "bytes=" + (0..<20).map { "\($0 * 100)-\($0 * 100 + 10)" }.joined(separator: ",")
                for header in ["bytes=9-3", "bytes=abc", "lines=0-5", "bytes=0-10,5-20", many, "bytes=0-,0-,0-"] {
                    let result = try await exchange(handler, "app://localhost/video.bin", headers: [.range: header])
                    #expect(result.status == 200, "\(header)")
                    #expect(result.body == Self.content)
                    #expect(result.headers[.contentLength] == "200000")
                }
            }
        }

        @Test func ifRangeDecidesBetweenPartAndWhole() async throws {
            try await Self.withFixture { handler in
                let full = try await exchange(handler, "app://localhost/video.bin", method: .head)
                let tag = try #require(full.headers[.eTag])
                let modified = try #require(full.headers[.lastModified])
                for (ifRange, partial) in [
                    (tag, true), (modified, true), ("\"stale\"", false), ("W/" + tag, false),
                    ("Sun, 06 Nov 1994 08:49:37 GMT", false),
                ] {
                    let result = try await exchange(
                        handler, "app://localhost/video.bin", headers: [.range: "bytes=10-19", .ifRange: ifRange])
                    #expect(result.status == (partial ? 206 : 200), "\(ifRange)")
                    #expect(result.body == (partial ? Self.bytes(10, 19) : Self.content))
                }
            }
        }

        @Test func headIgnoresRange() async throws {
            try await Self.withFixture { handler in
                let result = try await exchange(
                    handler, "app://localhost/video.bin", method: .head, headers: [.range: "bytes=0-9"])
                #expect(result.status == 200)
                #expect(result.headers[.contentLength] == "200000")
                #expect(result.body.isEmpty)
            }
        }

        @Test func offsetsBeyondFourGiBInASparseFile() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            let size: Int64 = 5 * 1024 * 1024 * 1024 + 17
            let markerOffset: Int64 = 4 * 1024 * 1024 * 1024 + 1000
            let marker = Data("marker beyond 4 GiB".utf8)
            let tail = Data("THE END".utf8)
            try fixture.sparseFile(
                "huge.bin", size: size, markers: [(markerOffset, marker), (size - Int64(tail.count), tail)])
            let handler = LocalFileHandler(root: fixture.root)

            let head = try await exchange(handler, "app://localhost/huge.bin", method: .head)
            #expect(head.headers[.contentLength] == String(size))

            let last = markerOffset + Int64(marker.count) - 1
            let range = try await exchange(
                handler, "app://localhost/huge.bin", headers: [.range: "bytes=\(markerOffset)-\(last)"])
            #expect(range.status == 206)
            #expect(range.headers[.contentRange] == "bytes \(markerOffset)-\(last)/\(size)")
            #expect(range.body == marker)

            let suffix = try await exchange(handler, "app://localhost/huge.bin", headers: [.range: "bytes=-7"])
            #expect(suffix.body == tail)
            #expect(suffix.headers[.contentRange] == "bytes \(size - 7)-\(size - 1)/\(size)")

            let around = try await exchange(
                handler, "app://localhost/huge.bin",
                headers: [.range: "bytes=\(markerOffset - 3)-\(markerOffset + 2), 4294967295-4294967296"])
            let boundary = String(try #require(around.headers[.contentType]).split(separator: "=")[1])
            let parts = try MultipartParser.parse(around.body, boundary: boundary)
            #expect(parts.map(\.body) == [Data([0, 0, 0]) + marker.prefix(3), Data([0, 0])])
        }
    }
}

/// A strict parser for `multipart/byteranges` bodies, for tests.
enum MultipartParser {
    struct Part {
        var headers: [String: String]
        var body: Data
    }

    struct Malformed: Error {}

    static func parse(_ body: Data, boundary: String) throws -> [Part] {
        let delimiter = Data("--\(boundary)".utf8)
        let crlf = Data("\r\n".utf8)
        guard body.starts(with: delimiter) else { throw Malformed() }
        var parts: [Part] = []
        var cursor = body.startIndex + delimiter.count
        while true {
            let rest = body[cursor...]
            if rest.starts(with: Data("--\r\n".utf8)) {
                guard rest.count == 4 else { throw Malformed() }
                return parts
            }
            guard rest.starts(with: crlf) else { throw Malformed() }
            guard let headerEnd = body.range(of: Data("\r\n\r\n".utf8), in: cursor..<body.endIndex) else {
                throw Malformed()
            }
            let headerText = String(decoding: body[(cursor + 2)..<headerEnd.lowerBound], as: UTF8.self)
            var headers: [String: String] = [:]
            for line in headerText.components(separatedBy: "\r\n") {
                let pair = line.split(separator: ":", maxSplits: 1)
                guard pair.count == 2 else { throw Malformed() }
                headers[pair[0].lowercased()] = pair[1].trimmingCharacters(in: .whitespaces)
            }
            let next = crlf + delimiter
            guard let end = body.range(of: next, in: headerEnd.upperBound..<body.endIndex) else { throw Malformed() }
            parts.append(Part(headers: headers, body: Data(body[headerEnd.upperBound..<end.lowerBound])))
            cursor = end.upperBound
        }
    }
}
