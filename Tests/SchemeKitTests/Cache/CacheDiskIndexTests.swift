import Foundation
import LoopbackTestSupport
import SchemeKitTesting
import Testing

@testable import SchemeKit

/// The disk tier's index file is written debounced, off the lock: a burst of stores costs one
/// write, it still reaches the disk without a flush, and a lost or stale index never serves a
/// wrong value.
struct CacheDiskIndexTests {
    private func open(_ directory: CacheTemporaryDirectory) throws -> DiskStorage.Backend<CacheTestClock> {
        try DiskStorage.Backend(
            config: .init(directory: directory.url, sizeLimit: 1 << 20, expiration: .never), clock: CacheTestClock())
    }

    private func indexedFiles(_ directory: CacheTemporaryDirectory) -> Set<String> {
        let url = directory.url.appendingPathComponent(DiskIndexFile.name)
        guard let data = try? Data(contentsOf: url),
            let index = try? JSONDecoder().decode(DiskIndexFile.self, from: data)
        else { return [] }
        return Set(index.entries.map(\.file))
    }

    @Test func aBurstOfStoresReachesTheIndexFileWithoutAFlush() async throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let disk = try open(directory)
        let keys = (0..<20).map { "k\($0)" }
        for key in keys { try disk.store(testBytes(100), forKey: key) }
        let expected = Set(keys.map(DiskStorage.fileName(forKey:)))
        #expect(await eventually() { indexedFiles(directory) == expected })
        withExtendedLifetime(disk) {}
    }

    @Test func flushWritesTheIndexAtOnce() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let disk = try open(directory)
        try disk.store(testBytes(100), forKey: "a")
        disk.flush()
        #expect(indexedFiles(directory) == [DiskStorage.fileName(forKey: "a")])
    }

    @Test func anIndexThatLagsTheFilesServesOnlyWhatTheFilesHold() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let disk = try open(directory)
        try disk.store(testBytes(100, seed: 1), forKey: "a")
        disk.flush()
        let staleIndex = try Data(contentsOf: directory.url.appendingPathComponent(DiskIndexFile.name))
        // A crash before the debounced write: the index still describes the old state.
        try disk.store(testBytes(300, seed: 2), forKey: "a")
        try disk.store(testBytes(200, seed: 3), forKey: "b")
        disk.flush()
        try staleIndex.write(to: directory.url.appendingPathComponent(DiskIndexFile.name))
        let reopened = try open(directory)
        #expect(reopened.value(forKey: "a") == testBytes(300, seed: 2))
        #expect(reopened.value(forKey: "b") == testBytes(200, seed: 3))
        #expect(reopened.count == 2)
        withExtendedLifetime(disk) {}
    }
}
