import Foundation
import SchemeKit

/// The `cache-write` mode: stores large entries into a ``DiskStorage`` directory in an endless
/// loop, so a test can kill the process mid-write and check that no torn entry is ever served.
///
/// `cache-write <directory> [entries] [max-bytes]` cycles over keys `entry-0` …
/// `entry-<entries - 1>` (default 8), each time with a new, increasing version, writing values of up to
/// `max-bytes` (default 4 MiB). Values are ``CacheWriter/value(forKey:version:maxBytes:pattern:)``:
/// derived from the key and version alone, so a reader can check any value it gets.
/// Prints `ready` once the directory is open, then one line per completed store.
enum CacheWriter {
    /// Runs the mode; returns the exit status (it only returns on bad arguments or errors).
    static func run(_ arguments: [String]) -> Int32 {
        guard let directory = arguments.first else {
            FileHandle.standardError.write(Data("cache-write: missing directory\n".utf8))
            return 64
        }
        let entries = arguments.count > 1 ? Int(arguments[1]) ?? 8 : 8
        let maxBytes = arguments.count > 2 ? Int(arguments[2]) ?? 4 << 20 : 4 << 20
        let storage: DiskStorage.Backend<ContinuousClock>
        do {
            storage = try DiskStorage.Backend(
                config: .init(directory: URL(fileURLWithPath: directory), sizeLimit: 1 << 30, expiration: .never),
                clock: ContinuousClock()
            )
        } catch {
            FileHandle.standardError.write(Data("cache-write: \(error)\n".utf8))
            return 1
        }
        let keys = (0..<max(1, entries)).map { "entry-\($0)" }
        let patterns = keys.map { pattern(forKey: $0, maxBytes: maxBytes) }
        say("ready")
        // Versions are wall-clock microseconds, so they grow across the processes a test starts.
        var version: UInt64 = 0
        while true {
            for (key, pattern) in zip(keys, patterns) {
                version = max(version + 1, UInt64(Date().timeIntervalSince1970 * 1_000_000))
                do {
                    try storage.store(
                        value(forKey: key, version: version, maxBytes: maxBytes, pattern: pattern), forKey: key)
                } catch {
                    FileHandle.standardError.write(Data("cache-write: \(error)\n".utf8))
                    return 1
                }
                say("stored \(key) \(version)")
            }
        }
    }

    /// The value written for `key` at `version`: a line `key version length\n`, then the start of
    /// ``pattern(forKey:maxBytes:)``, `length` bytes in all (between 1/4 and all of `maxBytes`,
    /// chosen by the key and version). The tests regenerate it to check what the cache serves.
    static func value(forKey key: String, version: UInt64, maxBytes: Int, pattern: Data) -> Data {
        let length = maxBytes / 4 + Int(fnv(key, version) % UInt64(max(1, maxBytes - maxBytes / 4)))
        var data = Data("\(key) \(version) \(length)\n".utf8)
        data.append(pattern.prefix(max(0, length - data.count)))
        return data
    }

    /// `maxBytes` pseudo-random bytes derived from `key` (a 64-bit LCG seeded with its FNV-1a hash).
    /// Computed once per key, so the loop spends its time writing rather than generating.
    static func pattern(forKey key: String, maxBytes: Int) -> Data {
        var state = fnv(key, 0)
        let words = (maxBytes + 7) / 8
        let array = [UInt64](unsafeUninitializedCapacity: words) { buffer, count in
            for index in 0..<words {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                buffer[index] = state.littleEndian
            }
            count = words
        }
        return array.withUnsafeBytes { Data($0.prefix(maxBytes)) }
    }

    private static func fnv(_ key: String, _ version: UInt64) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ version
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data("\(line)\n".utf8))
    }
}
