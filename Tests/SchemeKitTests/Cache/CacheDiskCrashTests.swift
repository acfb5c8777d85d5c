import Foundation
import LoopbackTestSupport
import SchemeKitTesting
import Testing

@testable import SchemeKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Kills a process writing the disk cache at arbitrary moments, then checks that the cache only
/// ever serves complete, correct entries — and keeps every entry whose store had completed.
struct CacheDiskCrashTests {
    /// The `SchemeKitFaultHelper` executable built with the tests, or `nil` when it cannot be found.
    static let helper: URL? = locateHelper()

    static func locateHelper(filePath: String = #filePath) -> URL? {
        let name = "SchemeKitFaultHelper"
        var directories: [URL] = []
        // On Linux the test runner sits in the build products directory, next to the helper.
        directories.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        directories.append(Bundle.main.bundleURL)
        // Otherwise walk up from this file to the package root and look in `.build`.
        var root = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while root.path != "/",
            !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path)
        {
            root = root.deletingLastPathComponent()
        }
        let build = root.appendingPathComponent(".build")
        directories.append(build.appendingPathComponent("debug"))
        for triple in (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? [] {
            directories.append(build.appendingPathComponent(triple).appendingPathComponent("debug"))
        }
        directories.append(build.appendingPathComponent("release"))
        return directories.lazy.map { $0.appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Regenerates what the helper writes for `key` at `version` (see `CacheWriter.value`).
    static func expectedValue(forKey key: String, version: UInt64, maxBytes: Int) -> Data {
        func fnv(_ version: UInt64) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ version
            for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
        var state = fnv(0)
        var pattern = Data(capacity: maxBytes + 8)
        while pattern.count < maxBytes {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            withUnsafeBytes(of: state.littleEndian) { pattern.append(contentsOf: $0) }
        }
        let length = maxBytes / 4 + Int(fnv(version) % UInt64(max(1, maxBytes - maxBytes / 4)))
        var data = Data("\(key) \(version) \(length)\n".utf8)
        data.append(pattern.prefix(length - data.count))
        return data
    }

    /// Waits (``eventually(timeout:_:)``, bounded) until `file` contains a line starting with `prefix`.
    private func waitForLine(_ prefix: String, in file: URL, timeout: Duration = .seconds(20)) async -> Bool {
        await eventually(timeout: timeout) {
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").contains(where: { $0.hasPrefix(prefix) })
        }
    }

    @Test(
        .enabled(
            if: helper != nil, "SchemeKitFaultHelper was not found next to the tests or in .build; build it first"),
        .timeLimit(.minutes(2))
    )
    func killingAWriterAtAnyMomentNeverLeavesATornEntryServed() async throws {
        let helper = try #require(Self.helper)
        let cache = CacheTemporaryDirectory("crash")
        let logs = CacheTemporaryDirectory("crash-logs")
        defer {
            cache.remove()
            logs.remove()
        }
        let keys = (0..<6).map { "entry-\($0)" }
        let maxBytes = 2 << 20
        var lastStored: [String: UInt64] = [:]
        // Kill until a few kills landed mid-write (a data temporary file was left behind), within
        // a bounded number of rounds.
        var midWriteKills = 0
        var round = 0
        while round < 40, midWriteKills < 3 {
            defer { round += 1 }
            let log = logs.url.appendingPathComponent("round-\(round).txt")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let output = try FileHandle(forWritingTo: log)
            let process = Process()
            process.executableURL = helper
            process.arguments = ["cache-write", cache.path, String(keys.count), String(maxBytes)]
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Kill it at a different moment each round: after it opened the cache, or after it
            // completed a store, plus a random delay of up to 30 ms.
            let started = await waitForLine(round % 2 == 0 ? "ready" : "stored", in: log)
            try await Task.sleep(for: .microseconds(Int.random(in: 0..<30_000)))  // paces the kill: a random moment
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try output.close()
            #expect(started, "round \(round): the helper never got going")
            #expect(process.terminationReason == .uncaughtSignal, "round \(round): the helper exited on its own")
            for line in try String(contentsOf: log, encoding: .utf8).split(separator: "\n") {
                let parts = line.split(separator: " ")
                guard parts.count == 3, parts[0] == "stored", let version = UInt64(parts[2]) else { continue }
                lastStored[String(parts[1]), default: 0] = max(lastStored[String(parts[1]), default: 0], version)
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: cache.path)
            let leftovers = names.filter { $0.hasPrefix(".tmp-") && !$0.hasPrefix(".tmp-index-") }
            if !leftovers.isEmpty {
                midWriteKills += 1
                // Leftovers are only removed when stale; clear them so the next round counts afresh.
                for name in leftovers {
                    try FileManager.default.removeItem(atPath: cache.url.appendingPathComponent(name).path)
                }
            }
        }
        #expect(midWriteKills >= 1, "no kill landed mid-write in \(round) rounds")
        #expect(!lastStored.isEmpty, "no store completed in any round")

        let storage = try DiskStorage.Backend(
            config: .init(directory: cache.url, sizeLimit: 1 << 30, expiration: .never), clock: ContinuousClock())
        var served = 0
        for key in keys {
            guard let data = storage.value(forKey: key) else {
                #expect(lastStored[key] == nil, "\(key) was stored completely but is gone")
                continue
            }
            served += 1
            let firstLine = data.prefix(while: { $0 != UInt8(ascii: "\n") })
            let fields = String(decoding: firstLine, as: UTF8.self).split(separator: " ")
            let version = try #require(fields.count == 3 ? UInt64(fields[1]) : nil, "\(key): unreadable value")
            #expect(fields[0] == key)
            #expect(data == Self.expectedValue(forKey: key, version: version, maxBytes: maxBytes), "\(key) is torn")
            #expect(version >= lastStored[key] ?? 0, "\(key) went back to an older version")
        }
        // A store may complete (renamed) without its "stored" line: more may be served, never fewer.
        #expect(served >= lastStored.count)
        // Nothing but the helper's keys' entries remains (torn leftovers were removed).
        let expectedFiles = Set(keys.map(DiskStorage.fileName(forKey:)))
        let files = CacheTemporaryDirectory.entryFiles(in: cache.url).map(\.lastPathComponent)
        #expect(files.allSatisfy(expectedFiles.contains))
    }
}
