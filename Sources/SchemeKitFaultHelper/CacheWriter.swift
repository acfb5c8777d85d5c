import Foundation
import SchemeKit

/// The `cache-write` mode: stores large entries into a ``DiskStorage`` directory in an endless
/// loop, so a test can kill the process mid-write and check that no torn entry is ever served.
///
/// `cache-write <directory> [entries] [max-bytes]` cycles over keys `entry-0` …
/// `entry-<entries - 1>` (default 8), each time with a new version, writing values of up to
/// `max-bytes` (default 4 MiB). Values are ``CacheWriter/value(forKey:version:maxBytes:)``:
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
        say("ready")
        var version = UInt64(ProcessInfo.processInfo.processIdentifier) << 32
        while true {
            for index in 0..<max(1, entries) {
                version += 1
                let key = "entry-\(index)"
                do {
                    try storage.store(value(forKey: key, version: version, maxBytes: maxBytes), forKey: key)
                } catch {
                    FileHandle.standardError.write(Data("cache-write: \(error)\n".utf8))
                    return 1
                }
                say("stored \(key) \(version)")
            }
        }
    }

    /// The value written for `key` at `version`: a line `key version length\n`, then bytes
    /// derived from the key and version, `length` bytes in all (between 1/4 and all of
    /// `maxBytes`). The tests regenerate it to check what the cache serves.
    static func value(forKey key: String, version: UInt64, maxBytes: Int) -> Data {
        var seed = seed(key, version)
        let length = maxBytes / 4 + Int(seed % UInt64(max(1, maxBytes - maxBytes / 4)))
        var data = Data("\(key) \(version) \(length)\n".utf8)
        data.reserveCapacity(length)
        while data.count < length {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            withUnsafeBytes(of: seed.littleEndian) { data.append(contentsOf: $0.prefix(length - data.count)) }
        }
        return data
    }

    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data("\(line)\n".utf8))
    }

    private static func seed(_ key: String, _ version: UInt64) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ version
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
