import Foundation
import Testing

@testable import SchemeKit

/// The one atomic-write helper every store uses.
struct AtomicFileTests {
    @Test func aWriteReplacesTheFileAndLeavesNoTemporaryFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("entry").path
        try AtomicFile.write([Data("old".utf8)], to: path, durability: .persistent)
        try AtomicFile.write([Data("ne".utf8), Data("w".utf8)], to: path, durability: .complete)
        #expect(FileManager.default.contents(atPath: path) == Data("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["entry"])
    }

    @Test func aFailedRenameKeepsTheOldFileAndRemovesTheTemporaryOne() throws {
        let directory = try TemporaryDirectory()
        let target = directory.url.appendingPathComponent("target")
        // A non-empty directory cannot be replaced by a file.
        try FileManager.default.createDirectory(
            at: target.appendingPathComponent("inside"), withIntermediateDirectories: true)
        #expect(throws: AtomicFile.Failure.self) {
            try AtomicFile.write([Data("x".utf8)], to: target.path, durability: .persistent)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["target"])
    }

    @Test func aWriterReleasedWithoutCommitLeavesNothing() throws {
        let directory = try TemporaryDirectory()
        let temporary = directory.url.appendingPathComponent(".t").path
        do {
            let writer = try AtomicFile.Writer(temporaryPath: temporary)
            try writer.append(Data(repeating: 1, count: 1000))
            #expect(writer.count == 1000)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        // O_EXCL: an existing temporary name is never written through.
        _ = FileManager.default.createFile(atPath: temporary, contents: Data("keep".utf8))
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.Writer(temporaryPath: temporary) }
        #expect(FileManager.default.contents(atPath: temporary) == Data("keep".utf8))
    }

    @Test func aClaimNeverReplacesAFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("body").path
        _ = FileManager.default.createFile(atPath: path, contents: Data("first".utf8))
        let writer = try AtomicFile.Writer(temporaryPath: AtomicFile.temporaryPath(beside: path))
        try writer.append(Data("second".utf8))
        #expect(try writer.claim(path, durability: .persistent) == false)
        #expect(FileManager.default.contents(atPath: path) == Data("first".utf8))
        #expect(FileManager.default.contents(atPath: writer.temporaryPath) == Data("second".utf8))
        let other = directory.url.appendingPathComponent("body-1").path
        #expect(try writer.claim(other, durability: .persistent))
        #expect(FileManager.default.contents(atPath: other) == Data("second".utf8))
        #expect(!FileManager.default.fileExists(atPath: writer.temporaryPath))
    }
}
