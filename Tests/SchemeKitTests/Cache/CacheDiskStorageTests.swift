import Foundation
import Testing

@testable import SchemeKit

struct CacheDiskStorageTests {
    private func open(
        _ directory: CacheTemporaryDirectory, sizeLimit: Int = 1 << 20, clock: CacheTestClock = CacheTestClock()
    ) throws -> DiskStorage.Backend<CacheTestClock> {
        try DiskStorage.Backend(
            config: .init(directory: directory.url, sizeLimit: sizeLimit, expiration: .never), clock: clock)
    }

    @Test func defaultsAreDocumented() {
        let config = DiskStorage.Config(directory: URL(fileURLWithPath: "/tmp/x"))
        #expect(config.sizeLimit == 256 * 1024 * 1024)
        #expect(config.expiration == .after(.seconds(7 * 24 * 3600)))
    }

    @Test func storesReadsAndRemoves() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let disk = try open(directory)
        try disk.store(testBytes(1000), forKey: "https://cdn.example/a.png")
        #expect(disk.value(forKey: "https://cdn.example/a.png") == testBytes(1000))
        #expect(disk.value(forKey: "https://cdn.example/b.png") == nil)
        #expect(disk.count == 1)
        #expect(disk.totalSize > 1000)
        try disk.store(Data(), forKey: "empty")
        #expect(disk.value(forKey: "empty") == Data())
        disk.remove(forKey: "https://cdn.example/a.png")
        #expect(disk.value(forKey: "https://cdn.example/a.png") == nil)
        disk.removeAll()
        #expect(disk.count == 0)
        #expect(disk.totalSize == 0)
        #expect(CacheTemporaryDirectory.entryFiles(in: directory.url).isEmpty)
    }

    @Test func persistsAcrossInstances() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        do {
            let disk = try open(directory)
            try disk.store(testBytes(500, seed: 1), forKey: "a")
            try disk.store(testBytes(700, seed: 2), forKey: "b")
        }
        let reopened = try open(directory)
        #expect(reopened.count == 2)
        #expect(reopened.value(forKey: "a") == testBytes(500, seed: 1))
        #expect(reopened.value(forKey: "b") == testBytes(700, seed: 2))
    }

    @Test func entriesSurviveALostIndex() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        try open(directory).store(testBytes(300), forKey: "a")
        try FileManager.default.removeItem(at: directory.url.appendingPathComponent("index.json"))
        let reopened = try open(directory)
        #expect(reopened.count == 1)
        #expect(reopened.value(forKey: "a") == testBytes(300))
    }

    @Test func evictsLeastRecentlyUsedBySizeAndRemembersOrderAcrossRestarts() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let clock = CacheTestClock()
        // Each entry file is 1000 bytes of data + 49 bytes of header: three fit, four do not.
        let limit = 3 * 1049 + 500
        do {
            let disk = try open(directory, sizeLimit: limit, clock: clock)
            for key in ["a", "b", "c"] {
                try disk.store(testBytes(1000), forKey: key)
                clock.advance(by: .seconds(1))
            }
            #expect(disk.value(forKey: "a") != nil)  // order now b, c, a
            clock.advance(by: .seconds(1))
            try disk.store(testBytes(1000), forKey: "d")  // evicts b
            #expect(disk.value(forKey: "b") == nil)
            #expect(disk.totalSize <= limit)
        }
        let reopened = try open(directory, sizeLimit: limit)
        try reopened.store(testBytes(1000), forKey: "e")  // evicts c, the least recently used
        #expect(reopened.value(forKey: "c") == nil)
        for key in ["a", "d", "e"] { #expect(reopened.value(forKey: key) != nil, "\(key)") }
        #expect(CacheTemporaryDirectory.entryFiles(in: directory.url).count == 3)
    }

    @Test func refusesAnEntryLargerThanTheLimit() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let disk = try open(directory, sizeLimit: 1000)
        #expect(throws: DiskStorageError.self) { try disk.store(testBytes(2000), forKey: "a") }
        #expect(disk.count == 0)
    }

    @Test func expiresWithTheClockAndAcrossRestarts() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let clock = CacheTestClock()
        let disk = try open(directory, clock: clock)
        try disk.store(testBytes(10), forKey: "minute", expiration: .seconds(60))
        try disk.store(testBytes(10), forKey: "hour", expiration: .seconds(3600))
        clock.advance(by: .seconds(59))
        #expect(disk.value(forKey: "minute") != nil)
        clock.advance(by: .seconds(2))
        #expect(disk.value(forKey: "minute") == nil)
        #expect(CacheTemporaryDirectory.entryFiles(in: directory.url).count == 1)

        // A new instance reads the expiry from the index: still alive, then expired.
        let laterClock = CacheTestClock()
        let reopened = try open(directory, clock: laterClock)
        #expect(reopened.value(forKey: "hour") != nil)
        laterClock.advance(by: .seconds(3600))
        #expect(reopened.removeExpired() == 1)
        #expect(reopened.value(forKey: "hour") == nil)
        #expect(CacheTemporaryDirectory.entryFiles(in: directory.url).isEmpty)
    }

    @Test func writesAreAtomicAndLeaveNoTemporaryFiles() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let disk = try open(directory)
        for round in 0..<5 { try disk.store(testBytes(4096, seed: UInt8(round)), forKey: "a") }
        // The index is written debounced, on its own queue: let a write in flight finish.
        disk.flush()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.filter { $0.hasPrefix(".tmp-") }.isEmpty)
        #expect(names.filter { $0.hasSuffix(".entry") }.count == 1)
        #expect(disk.value(forKey: "a") == testBytes(4096, seed: 4))
    }

    @Test func leftoverTemporaryFilesAreIgnoredAndStaleOnesRemoved() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let stale = directory.url.appendingPathComponent(".tmp-stale")
        let fresh = directory.url.appendingPathComponent(".tmp-fresh")
        try testBytes(100).write(to: stale)
        try testBytes(100).write(to: fresh)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: stale.path)
        let disk = try open(directory)
        #expect(disk.count == 0)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))
    }

    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case flipDataByte, flipHeaderByte, flipKeyByte, truncate, truncateToHeader, appendByte, empty
        var testDescription: String { rawValue }

        func apply(to file: URL) throws {
            var bytes = try Data(contentsOf: file)
            switch self {
            case .flipDataByte: bytes[bytes.count - 100] ^= 0x01
            case .flipHeaderByte: bytes[10] ^= 0x80
            case .flipKeyByte: bytes[45] ^= 0x01
            case .truncate: bytes.removeLast(1)
            case .truncateToHeader: bytes = bytes.prefix(60)
            case .appendByte: bytes.append(0)
            case .empty: bytes = Data()
            }
            try bytes.write(to: file)
        }
    }

    @Test(arguments: Damage.allCases)
    func damagedEntryIsDroppedAndNotServed(_ damage: Damage) throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let disk = try open(directory)
        try disk.store(testBytes(2000), forKey: "victim")
        try disk.store(testBytes(2000, seed: 9), forKey: "bystander")
        let file = directory.url.appendingPathComponent(DiskStorage.fileName(forKey: "victim"))
        try damage.apply(to: file)
        #expect(disk.value(forKey: "victim") == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(disk.count == 1)
        #expect(disk.value(forKey: "bystander") == testBytes(2000, seed: 9))
    }

    @Test(arguments: Damage.allCases)
    func damagedEntryIsDroppedWhenOpening(_ damage: Damage) throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        try open(directory).store(testBytes(2000), forKey: "victim")
        try FileManager.default.removeItem(at: directory.url.appendingPathComponent("index.json"))
        let file = directory.url.appendingPathComponent(DiskStorage.fileName(forKey: "victim"))
        try damage.apply(to: file)
        let reopened = try open(directory)
        #expect(reopened.value(forKey: "victim") == nil)
        #expect(CacheTemporaryDirectory.entryFiles(in: directory.url).isEmpty)
    }

    @Test func aForeignKeyUnderTheSameFileNameIsAMiss() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let disk = try open(directory)
        try disk.store(testBytes(100), forKey: "real")
        // Simulate a hash collision: another key's entry file under "real"'s name.
        let otherDirectory = CacheTemporaryDirectory()
        defer { otherDirectory.remove() }
        let other = try open(otherDirectory)
        try other.store(testBytes(100, seed: 3), forKey: "impostor")
        let source = other.path(of: DiskStorage.fileName(forKey: "impostor"))
        let target = disk.path(of: DiskStorage.fileName(forKey: "real"))
        try FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        #expect(disk.value(forKey: "real") == nil)
        // The colliding entry is kept for its own key.
        #expect(FileManager.default.fileExists(atPath: target))
    }

    @Test func entriesWrittenByAnotherInstanceAreFound() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let reader = try open(directory)
        let writer = try open(directory)
        try writer.store(testBytes(100), forKey: "late")
        #expect(reader.value(forKey: "late") == testBytes(100))
        #expect(reader.count == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func concurrentReadersAndWritersSeeOnlyCompleteValues() async throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let disk = try open(directory, sizeLimit: 64 << 20)
        let keys = (0..<8).map { "key-\($0)" }
        // A value names its key and version in its first bytes and is derived from both.
        @Sendable func value(_ key: String, _ version: Int) -> Data {
            var data = Data("\(key)#\(version)#".utf8)
            data.append(testBytes(8000 + version * 13, seed: UInt8(truncatingIfNeeded: version)))
            return data
        }
        @Sendable func isValid(_ data: Data, _ key: String) -> Bool {
            let parts = data.split(separator: UInt8(ascii: "#"), maxSplits: 2)
            guard parts.count == 3, String(decoding: parts[0], as: UTF8.self) == key,
                let version = Int(String(decoding: parts[1], as: UTF8.self))
            else { return false }
            return data == value(key, version)
        }
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for round in 0..<25 {
                        let key = keys[(writer + round) % keys.count]
                        try disk.store(value(key, writer * 100 + round), forKey: key)
                        if round % 7 == 0 { disk.remove(forKey: keys[round % keys.count]) }
                    }
                    return 0
                }
            }
            for reader in 0..<4 {
                group.addTask {
                    var bad = 0
                    for round in 0..<100 {
                        let key = keys[(reader * 3 + round) % keys.count]
                        if let data = disk.value(forKey: key), !isValid(data, key) { bad += 1 }
                    }
                    return bad
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)
        for key in keys {
            if let data = disk.value(forKey: key) { #expect(isValid(data, key)) }
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.hasPrefix(".tmp-") })
    }

    @Test func aDirectoryUnderARegularFileCannotBeOpened() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("file.txt")
        try Data("x".utf8).write(to: file)
        #expect(throws: DiskStorageError.self) {
            _ = try DiskStorage.Backend(
                config: .init(directory: file.appendingPathComponent("cache")), clock: CacheTestClock())
        }
        #expect(throws: DiskStorageError.self) {
            _ = try DiskStorage.Backend(config: .init(directory: file), clock: CacheTestClock())
        }
    }
}
