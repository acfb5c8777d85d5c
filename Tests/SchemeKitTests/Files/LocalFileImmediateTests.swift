import Foundation
import HTTPTypes
import SchemeKit
import SchemeKitTesting
import Testing

@testable import SchemeKit

extension FilesTests {
    /// The immediate answers (`registry.immediateResponse(for:)`, what schemeserve answers on its
    /// event loop) are exactly what a task delivers, and come for every case that needs no read.
    struct LocalFileImmediateTests {
        /// One request, and whether it must be answered at once once the cache is warm.
        struct Case: Sendable, CustomTestStringConvertible {
            var name: String
            var path: String
            var method: HTTPRequest.Method = .get
            var headers: HTTPFields = [:]
            var immediate: Bool
            var testDescription: String { name }
        }

        static let lastModified = "Sat, 01 Jan 2000 00:00:00 GMT"

        static let cases: [Case] = [
            Case(name: "cached small file", path: "/a.css", immediate: true),
            Case(name: "HEAD of a known type", path: "/a.css", method: .head, immediate: true),
            Case(name: "HEAD of a large file of a known type", path: "/big.js", method: .head, immediate: true),
            Case(
                name: "a single range of a cached file", path: "/a.css", headers: [.range: "bytes=2-9"], immediate: true
            ),
            Case(name: "an unsatisfiable range", path: "/a.css", headers: [.range: "bytes=9999-"], immediate: true),
            Case(name: "two ranges", path: "/a.css", headers: [.range: "bytes=0-1,4-5"], immediate: false),
            Case(name: "If-None-Match *", path: "/a.css", headers: [.ifNoneMatch: "*"], immediate: true),
            Case(name: "If-Match that fails", path: "/a.css", headers: [.ifMatch: "\"nope\""], immediate: true),
            Case(
                name: "an old If-Unmodified-Since", path: "/a.css",
                headers: [.ifUnmodifiedSince: lastModified], immediate: true),
            Case(name: "an empty file", path: "/empty.txt", immediate: true),
            Case(name: "an extensionless cached file", path: "/README", immediate: true),
            Case(name: "a large file's body", path: "/big.js", immediate: false),
            Case(name: "a missing file (the registry's 404)", path: "/missing.txt", immediate: true),
            Case(name: "a traversal", path: "/%2e%2e/outside/canary.txt", immediate: true),
            Case(name: "a dotfile", path: "/.env", immediate: true),
            Case(name: "a directory's index", path: "/", immediate: true),
            Case(name: "a directory without index", path: "/sub/", immediate: true),
            Case(name: "a method the handler does not take", path: "/a.css", method: .post, immediate: true),
        ]

        @Test(arguments: cases)
        func immediateAnswersAreWhatATaskDelivers(_ testCase: Case) async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("a.css", String(repeating: "body{}\n", count: 30))
            try fixture.write("README", "plain words, no extension\n")
            try fixture.write("empty.txt", "")
            try fixture.write("index.html", "<p>home</p>")
            try fixture.write("sub/x.txt", "x")
            try fixture.write(".env", "SECRET=1")
            try fixture.write("big.js", String(repeating: "x", count: 200_000))
            let handler = LocalFileHandler(
                configuration: .init(root: .directory(fixture.root), bodyCache: .init(maxFileSize: 64 << 10)))
            let registry = SchemeRegistry()
            try registry.register(handler, for: "app")
            let request = try SchemeRequest(
                "app://localhost\(testCase.path)", method: testCase.method, headerFields: testCase.headers)
            // Warm the body cache, then compare a task's answer with the immediate one.
            _ = try await registry.response(for: SchemeRequest("app://localhost\(testCase.path)"), limit: 1 << 20)
            let delivered = try await registry.response(for: request, limit: 1 << 20)
            let before = registry.metrics
            let immediate = registry.immediateResponse(for: request)
            #expect((immediate != nil) == testCase.immediate)
            if let immediate {
                #expect(immediate.head == delivered.head)
                #expect(immediate.body == delivered.body)
                #expect(immediate.answeredBy == delivered.answeredBy)
                let after = registry.metrics
                #expect(after.started == before.started + 1)
                #expect(after.finished == before.finished + 1)
            } else {
                #expect(registry.metrics == before, "a deferred request is not counted")
            }
        }

        @Test func aHandlerThatIsNotImmediateDefersTheChain() throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            let registry = SchemeRegistry()
            try registry.register(
                SchemeHandlerChain(LocalFileHandler(root: fixture.root), StaticHandler(Data("fallback".utf8))),
                for: "app")
            // The file handler passes at once; the next handler can only answer in a task.
            #expect(registry.immediateResponse(for: try SchemeRequest("app://localhost/missing")) == nil)
        }

        @Test func aWrongRootIsLeftToTheTaskToReport() throws {
            let registry = SchemeRegistry()
            try registry.register(
                LocalFileHandler(root: URL(fileURLWithPath: "/nonexistent-root-\(UUID())")), for: "app")
            #expect(registry.immediateResponse(for: try SchemeRequest("app://localhost/index.html")) == nil)
        }

        /// A path answered from a cached body is checked with one `lstat` next time; whatever
        /// changed at the path (new bytes, a symbolic link out of the root, nothing there) is seen.
        @Test func aRememberedPathIsCheckedEveryTime() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("a.txt", "one")
            let handler = LocalFileHandler(
                configuration: .init(root: .directory(fixture.root), bodyCache: .init(maxFileSize: 64 << 10)))
            let registry = SchemeRegistry()
            try registry.register(handler, for: "app")
            let request = try SchemeRequest("app://localhost/a.txt")
            _ = try await registry.response(for: request)  // read and cached
            #expect(registry.immediateResponse(for: request)?.body == Data("one".utf8))  // path remembered
            // Served from the remembered location without opening the file.
            let probe = FileReadProbe()
            FileReadProbe.$current.withValue(probe) {
                #expect(registry.immediateResponse(for: request)?.body == Data("one".utf8))
            }
            #expect(probe.openedFiles.isEmpty)

            // New bytes: the check fails, the walk runs, the new file is read (not from memory).
            // Four bytes where there were three: the size differs, whatever the clock's resolution
            // makes of the modification time.
            try fixture.write("a.txt", "two!")
            #expect(registry.immediateResponse(for: request) == nil)
            #expect(try await registry.response(for: request).body == Data("two!".utf8))

            // A symbolic link out of the root in its place: refused by the walk, never the canary.
            try FileManager.default.removeItem(at: fixture.root.appendingPathComponent("a.txt"))
            try fixture.symlink("a.txt", to: fixture.outside.appendingPathComponent("canary.txt").path)
            let linked = try await registry.response(for: request)
            #expect(linked.head.status == .forbidden)
            #expect(registry.immediateResponse(for: request)?.head.status == .forbidden)

            // Nothing there: the registry's 404.
            try FileManager.default.removeItem(at: fixture.root.appendingPathComponent("a.txt"))
            #expect(registry.immediateResponse(for: request)?.head.status == .notFound)
        }

        /// A large file (not kept by the body cache) needs a read: it is left to a task (nothing is
        /// counted for the immediate attempt), which hands an engine that sends files itself one
        /// region per range, from the file the answer opened, and reads it for any other.
        @Test func aLargeFileIsLeftToATaskThatWritesItAsARegion() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
            try fixture.write("big.bin", bytes)
            let registry = SchemeRegistry()
            try registry.register(
                LocalFileHandler(configuration: .init(root: .directory(fixture.root), bodyCache: .init())), for: "app")
            for (range, expected) in [(nil, bytes), ("bytes=1000-1999", bytes[1000...1999])] {
                var fields = HTTPFields()
                if let range { fields[.range] = range }
                let request = try SchemeRequest("app://localhost/big.bin", headerFields: fields)
                let before = registry.metrics
                #expect(registry.immediateResponse(for: request) == nil)
                #expect(registry.metrics == before)
                let sink = RecordingSink(acceptsFileRegions: true)
                await registry.task(for: request, sink: sink).run()
                #expect(sink.fileRegionCount == 1)
                #expect(sink.body == Data(expected))
                let delivered = try await registry.response(for: request, limit: 1 << 20)
                #expect(delivered.body == Data(expected))
                #expect(sink.response?.headerFields == delivered.head.headerFields)
            }
        }
    }
}
