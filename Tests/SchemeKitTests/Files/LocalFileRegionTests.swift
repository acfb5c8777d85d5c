import Foundation
import HTTPTypes
import SchemeKit
import SchemeKitTesting
import Testing

extension FilesTests {
    /// An engine that sends files itself gets the bodies of large files as file regions (no read
    /// through user space); every other engine gets the same bytes.
    struct LocalFileRegionTests {
        static func fixture() throws -> FileFixture {
            let fixture = try FileFixture()
            var bytes = [UInt8](repeating: 0, count: 300_000)
            for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 7) }
            try fixture.write("big.bin", Data(bytes))
            try fixture.write("small.txt", "small")
            return fixture
        }

        static func run(
            _ root: URL, _ path: String, headers: HTTPFields = [:], regions: Bool
        ) async throws -> RecordingSink {
            let registry = SchemeRegistry()
            try registry.register(LocalFileHandler(root: root), for: "app")
            let sink = RecordingSink(acceptsFileRegions: regions)
            await registry.handle(try SchemeRequest("app://localhost\(path)", headerFields: headers), sink: sink)
            return sink
        }

        @Test func aLargeFileIsOneRegionForAnEngineThatTakesThem() async throws {
            let fixture = try Self.fixture()
            defer { fixture.remove() }
            let expected = try Data(contentsOf: fixture.root.appendingPathComponent("big.bin"))
            let regions = try await Self.run(fixture.root, "/big.bin", regions: true)
            let bytes = try await Self.run(fixture.root, "/big.bin", regions: false)
            #expect(regions.fileRegionCount == 1)
            #expect(bytes.fileRegionCount == 0)
            #expect(regions.body == expected)
            #expect(bytes.body == expected)
            #expect(regions.violations.isEmpty && bytes.violations.isEmpty)
            #expect(regions.response?.headerFields[.contentLength] == "300000")
        }

        @Test func rangesMapToRegions() async throws {
            let fixture = try Self.fixture()
            defer { fixture.remove() }
            let expected = try Data(contentsOf: fixture.root.appendingPathComponent("big.bin"))
            let single = try await Self.run(
                fixture.root, "/big.bin", headers: [.range: "bytes=100000-199999"], regions: true)
            #expect(single.response?.status == .partialContent)
            #expect(single.fileRegionCount == 1)
            #expect(single.body == expected[100_000..<200_000])
            let multiple = try await Self.run(
                fixture.root, "/big.bin", headers: [.range: "bytes=0-99,200000-200099"], regions: true)
            #expect(multiple.fileRegionCount == 2)
            let multipleBytes = try await Self.run(
                fixture.root, "/big.bin", headers: [.range: "bytes=0-99,200000-200099"], regions: false)
            // The same multipart body either way, but for its random boundary.
            #expect(Self.withoutBoundary(multiple) == Self.withoutBoundary(multipleBytes))
            #expect(multiple.body.count == 475)
        }

        /// The body with the multipart boundary replaced by a fixed word.
        static func withoutBoundary(_ sink: RecordingSink) -> String {
            let type = sink.response?.headerFields[.contentType] ?? ""
            guard let boundary = type.split(separator: "=").last.map(String.init) else { return "" }
            return String(decoding: sink.body, as: UTF8.self).replacingOccurrences(of: boundary, with: "BOUNDARY")
        }

        @Test func smallFilesStayBytes() async throws {
            let fixture = try Self.fixture()
            defer { fixture.remove() }
            let sink = try await Self.run(fixture.root, "/small.txt", regions: true)
            #expect(sink.bodyString == "small")
            #expect(sink.fileRegionCount == 0)
        }

        @Test func aRegionKeepsItsFileOpenAfterTheHandlerClosedItsOwn() async throws {
            let fixture = try Self.fixture()
            defer { fixture.remove() }
            let url = fixture.root.appendingPathComponent("big.bin")
            let descriptor = open(url.path, O_RDONLY)
            #expect(descriptor >= 0)
            let handle = try SchemeFileHandle(duplicating: descriptor)
            close(descriptor)
            let region = SchemeFileRegion(handle, offset: 10, count: 20)
            let body = SchemeBody(fileRegion: region)
            #expect(body.count == 20)
            #expect(body.data == (try Data(contentsOf: url))[10..<30])
            #expect(body.slice(5..<10).fileRegion?.offset == 15)
            #expect(body.slice(5..<10).data == (try Data(contentsOf: url))[15..<20])
        }
    }
}
