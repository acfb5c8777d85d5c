import Foundation
import HTTPTypes
import SchemeKit
import SchemeKitTesting
import Testing

@testable import SchemeKit

extension FilesTests {
    /// `name.br` / `name.gz` served in place of `name`, found by the same resolver walk.
    @Suite(.timeLimit(.minutes(1)))
    struct LocalFilePrecompressedTests {
        static func fixture() throws -> FileFixture {
            let fixture = try FileFixture()
            try fixture.write("app.js", "console.log('plain')")
            try fixture.write("app.js.gz", "GZ-BYTES")
            try fixture.write("app.js.br", "BR-BYTES!")
            try fixture.write("only-gz.css", "body{}")
            try fixture.write("only-gz.css.gz", "GZ-CSS")
            try fixture.write("orphan.js.gz", "ORPHAN")
            try fixture.write("dir/index.html", "<p>index</p>")
            try fixture.write("dir/index.html.gz", "GZ-INDEX")
            return fixture
        }

        static func handler(_ root: URL, cache: LocalFileHandler.BodyCache? = nil) -> LocalFileHandler {
            LocalFileHandler(
                configuration: .init(root: .directory(root), bodyCache: cache, precompressed: [.brotli, .gzip]))
        }

        @Test func preferenceOrderAndHeaders() async throws {
            let fixture = try Self.fixture()
            defer { fixture.remove() }
            let handler = Self.handler(fixture.root)
            let plain = try await exchange(handler, "app://localhost/app.js")
            #expect(plain.text == "console.log('plain')")
            #expect(plain.headers[.contentEncoding] == nil)

            let brotli = try await exchange(handler, "app://localhost/app.js", headers: [.acceptEncoding: "gzip, br"])
            #expect(brotli.text == "BR-BYTES!")
            #expect(brotli.headers[.contentEncoding] == "br")
            #expect(brotli.headers[.vary] == "Accept-Encoding")
            #expect(brotli.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(brotli.headers[.contentLength] == "9")

            let gzip = try await exchange(handler, "app://localhost/app.js", headers: [.acceptEncoding: "gzip, br;q=0"])
            #expect(gzip.text == "GZ-BYTES")
            #expect(gzip.headers[.contentEncoding] == "gzip")

            let refused = try await exchange(handler, "app://localhost/app.js", headers: [.acceptEncoding: "gzip;q=0"])
            #expect(refused.text == "console.log('plain')")
            #expect(refused.headers[.contentEncoding] == nil)

            let tags = [plain, brotli, gzip].compactMap { $0.headers[.eTag] }
            #expect(Set(tags).count == 3, "one ETag per encoding: \(tags)")
            #expect(brotli.headers[.eTag]?.hasSuffix("-br\"") == true)
            #expect(gzip.headers[.eTag]?.hasSuffix("-gzip\"") == true)
        }

        @Test func aRangeGetsTheIdentityBytes() async throws {
            let fixture = try Self.fixture()
            defer { fixture.remove() }
            let ranged = try await exchange(
                Self.handler(fixture.root), "app://localhost/app.js",
                headers: [.acceptEncoding: "gzip, br", .range: "bytes=0-6"])
            #expect(ranged.status == 206)
            #expect(ranged.text == "console")
            #expect(ranged.headers[.contentEncoding] == nil)
        }

        @Test func conditionalsUseTheSiblingsValidators() async throws {
            let fixture = try Self.fixture()
            defer { fixture.remove() }
            let handler = Self.handler(fixture.root, cache: .init())
            let accept: HTTPFields = [.acceptEncoding: "gzip"]
            let first = try await exchange(handler, "app://localhost/only-gz.css", headers: accept)
            let tag = try #require(first.headers[.eTag])
            var revalidate = accept
            revalidate[.ifNoneMatch] = tag
            let notModified = try await exchange(handler, "app://localhost/only-gz.css", headers: revalidate)
            #expect(notModified.status == 304)
            #expect(notModified.headers[.eTag] == tag)
            #expect(notModified.headers[.vary] == "Accept-Encoding")
            var mismatch = accept
            mismatch[.ifMatch] = "\"nope\""
            let failed = try await exchange(handler, "app://localhost/only-gz.css", headers: mismatch)
            #expect(failed.status == 412)
            let head = try await exchange(handler, "app://localhost/only-gz.css", method: .head, headers: accept)
            #expect(head.headers[.contentEncoding] == "gzip")
            #expect(head.body.isEmpty)
        }

        @Test func indexFilesHaveSiblingsToo() async throws {
            let fixture = try Self.fixture()
            defer { fixture.remove() }
            let result = try await exchange(
                Self.handler(fixture.root), "app://localhost/dir/", headers: [.acceptEncoding: "gzip"])
            #expect(result.text == "GZ-INDEX")
            #expect(result.headers[.contentType] == "text/html; charset=utf-8")
        }

        @Test func aSiblingIsOnlyServedNextToItsOriginal() async throws {
            let fixture = try Self.fixture()
            defer { fixture.remove() }
            let result = try await exchange(
                Self.handler(fixture.root), "app://localhost/orphan.js", headers: [.acceptEncoding: "gzip"])
            #expect(result.wasPassed)
        }

        @Test func aSiblingThatIsASymlinkIsIgnored() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("a.js", "plain")
            try fixture.symlink("a.js.gz", to: fixture.outside.appendingPathComponent("canary.txt").path)
            let result = try await exchange(
                Self.handler(fixture.root), "app://localhost/a.js", headers: [.acceptEncoding: "gzip"])
            #expect(result.text == "plain")
            #expect(result.headers[.contentEncoding] == nil)
        }

        /// One walk per request: the sibling is opened in the directory the walk ended in.
        @Test func oneRequestOpensOneFile() async throws {
            let fixture = try Self.fixture()
            defer { fixture.remove() }
            let handler = Self.handler(fixture.root)
            let probe = FileReadProbe()
            try await FileReadProbe.$current.withValue(probe) {
                _ = try await exchange(handler, "app://localhost/app.js", headers: [.acceptEncoding: "gzip"])
            }
            #expect(probe.openedFiles.count == 1)
        }
    }
}
