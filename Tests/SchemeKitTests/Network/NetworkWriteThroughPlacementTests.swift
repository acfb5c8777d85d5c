import Foundation
import Testing

@testable import SchemeKit

/// Where write-through files land: only under the directory, never through a link inside it.
struct NetworkWriteThroughPlacementTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aCompleteBodyIsRenamedIntoNewDirectories() throws {
        let base = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let store = NetworkWriteThrough(directory: base.appendingPathComponent("store"))
        let file = try #require(store.begin(url: URL(string: "https://example.com/a/b%20c.js")!, expectedLength: 5))
        file.append(Data("hello".utf8))
        #expect(file.commit())
        let stored = base.appendingPathComponent("store/example.com/a/b c.js")
        #expect(try Data(contentsOf: stored) == Data("hello".utf8))
    }

    @Test(arguments: ["example.com", "example.com/a"])
    func aSymlinkInsideTheDirectoryDoesNotRedirectTheWrite(linked: String) throws {
        let base = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let directory = base.appendingPathComponent("store")
        let outside = base.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let link = directory.appendingPathComponent(linked)
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside)

        let store = NetworkWriteThrough(directory: directory)
        let file = try #require(store.begin(url: URL(string: "https://example.com/a/x.js")!, expectedLength: nil))
        file.append(Data("evil".utf8))
        #expect(!file.commit())
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(".partial").path)
                .isEmpty)
    }
}
