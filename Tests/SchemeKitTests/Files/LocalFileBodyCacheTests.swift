import Foundation
import HTTPTypes
import SchemeKit
import SchemeKitTesting
import Testing

@testable import SchemeKit

extension FilesTests {
    /// The body cache: keyed by the opened file's `fstat`, consulted after preconditions.
    @Suite(.timeLimit(.minutes(1)))
    struct LocalFileBodyCacheTests {
        static func handler(_ root: URL, cache: LocalFileHandler.BodyCache? = .init()) -> LocalFileHandler {
            LocalFileHandler(configuration: .init(root: .directory(root), bodyCache: cache))
        }

        /// Runs `body` with a fresh probe bound and returns how many reads it saw.
        static func reads(_ body: () async throws -> Void) async rethrows -> Int {
            let probe = FileReadProbe()
            try await FileReadProbe.$current.withValue(probe) { try await body() }
            return probe.reads
        }

        @Test func aSecondGetIsServedWithoutARead() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("a.txt", "hello, cache")
            let handler = Self.handler(fixture.root)
            var first: FileExchange?
            let firstReads = try await Self.reads { first = try await exchange(handler, "app://localhost/a.txt") }
            var second: FileExchange?
            let secondReads = try await Self.reads { second = try await exchange(handler, "app://localhost/a.txt") }
            #expect(firstReads == 1)
            #expect(secondReads == 0)
            #expect(second?.text == "hello, cache")
            #expect(second?.headers == first?.headers)
            #expect(handler.bodyCache?.usage.count == 1)
        }

        @Test func offByDefault() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("a.txt", "hello")
            let handler = LocalFileHandler(root: fixture.root)
            #expect(handler.bodyCache == nil)
            _ = try await exchange(handler, "app://localhost/a.txt")
            let reads = try await Self.reads { _ = try await exchange(handler, "app://localhost/a.txt") }
            #expect(reads == 1)
        }

        @Test func preconditionsRangesAndHeadStillApplyOnAHit() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("a.txt", "abcdefghij")
            let handler = Self.handler(fixture.root)
            let full = try await exchange(handler, "app://localhost/a.txt")
            _ = try await exchange(handler, "app://localhost/a.txt")
            let tag = try #require(full.headers[.eTag])
            let modified = try #require(full.headers[.lastModified])

            let ifMatch = try await exchange(handler, "app://localhost/a.txt", headers: [.ifMatch: "\"nope\""])
            #expect(ifMatch.status == 412)
            let unmodified = try await exchange(
                handler, "app://localhost/a.txt", headers: [.ifUnmodifiedSince: "Sun, 06 Nov 1994 08:49:37 GMT"])
            #expect(unmodified.status == 412)
            let noneMatch = try await exchange(handler, "app://localhost/a.txt", headers: [.ifNoneMatch: tag])
            #expect(noneMatch.status == 304)
            #expect(noneMatch.body.isEmpty)
            let modifiedSince = try await exchange(
                handler, "app://localhost/a.txt", headers: [.ifModifiedSince: modified])
            #expect(modifiedSince.status == 304)
            let range = try await exchange(handler, "app://localhost/a.txt", headers: [.range: "bytes=2-4"])
            #expect(range.status == 206)
            #expect(range.text == "cde")
            let multi = try await exchange(handler, "app://localhost/a.txt", headers: [.range: "bytes=0-0,9-9"])
            #expect(multi.status == 206)
            #expect(multi.text.contains("Content-Range: bytes 9-9/10"))
            let unsatisfiable = try await exchange(handler, "app://localhost/a.txt", headers: [.range: "bytes=20-"])
            #expect(unsatisfiable.status == 416)
            let head = try await exchange(handler, "app://localhost/a.txt", method: .head)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.headers[.contentLength] == "10")
        }

        @Test func aChangedFileIsReadAgain() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            let url = try fixture.write("a.txt", "one")
            let handler = Self.handler(fixture.root)
            _ = try await exchange(handler, "app://localhost/a.txt")
            // Same size, other bytes, another modification time.
            try Data("two".utf8).write(to: url)
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 1_000_000)],
                ofItemAtPath: url.path)
            let changed = try await exchange(handler, "app://localhost/a.txt")
            #expect(changed.text == "two")
            // Replaced by rename: another inode.
            let replacement = try fixture.write("b.tmp", "six")
            #expect(rename(replacement.path, url.path) == 0)
            let renamed = try await exchange(handler, "app://localhost/a.txt")
            #expect(renamed.text == "six")
        }

        @Test func filesOverTheLimitAreNotKept() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("small.txt", String(repeating: "s", count: 100))
            try fixture.write("large.txt", String(repeating: "l", count: 101))
            let handler = Self.handler(fixture.root, cache: .init(maxFileSize: 100))
            for _ in 0..<2 {
                _ = try await exchange(handler, "app://localhost/small.txt")
                _ = try await exchange(handler, "app://localhost/large.txt")
            }
            let reads = try await Self.reads {
                let large = try await exchange(handler, "app://localhost/large.txt")
                #expect(large.body.count == 101)
            }
            #expect(reads == 1)
            #expect(handler.bodyCache?.usage.count == 1)
        }

        @Test func theCacheIsBoundedByBytes() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            for index in 0..<20 { try fixture.write("f\(index).txt", String(repeating: "x", count: 1000)) }
            let handler = Self.handler(fixture.root, cache: .init(maxFileSize: 1000, totalCostLimit: 5000))
            for index in 0..<20 {
                let result = try await exchange(handler, "app://localhost/f\(index).txt")
                #expect(result.body.count == 1000)
            }
            let usage = try #require(handler.bodyCache?.usage)
            #expect(usage.bytes <= 5000)
            #expect(usage.count == 5)
            // The most recent stay.
            let reads = try await Self.reads { _ = try await exchange(handler, "app://localhost/f19.txt") }
            #expect(reads == 0)
        }

        @Test func sniffedTypesAreKeptOnAHit() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("page", "<!DOCTYPE html><p>hi</p>")
            let handler = Self.handler(fixture.root)
            let first = try await exchange(handler, "app://localhost/page")
            let second = try await exchange(handler, "app://localhost/page", method: .head)
            #expect(first.headers[.contentType] == "text/html; charset=utf-8")
            #expect(second.headers[.contentType] == first.headers[.contentType])
        }
    }
}
