import Foundation
import Synchronization

/// A fresh directory under the temporary directory, removed by ``remove()``.
struct CacheTemporaryDirectory {
    let url: URL

    init(_ label: String = "cache") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("schemekit-\(label)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// The entry files (`*.entry`) in `directory`.
    static func entryFiles(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".entry") }.sorted().map { directory.appendingPathComponent($0) }
    }
}

/// Collects warnings sent to an `onWarning` closure.
final class WarningLog: Sendable {
    private let messages = Locked<[String]>([])

    var sink: @Sendable (String) -> Void {
        { [self] message in messages.withLock { $0.append(message) } }
    }

    var all: [String] { messages.withLock { $0 } }
}

/// Deterministic bytes of a given length, different for each seed.
func testBytes(_ count: Int, seed: UInt8 = 1) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7) })
}

/// A thread-safe counter.
final class CacheCounter: Sendable {
    private let value = Locked(0)

    func increment() { value.withLock { $0 += 1 } }

    var count: Int { value.withLock { $0 } }
}
