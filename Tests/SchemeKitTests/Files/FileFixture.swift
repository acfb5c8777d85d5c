import Foundation
import HTTPTypes
import SchemeKit
import SchemeKitTesting
import Synchronization

/// A temporary directory laid out for file-handler tests:
/// `base/root` (served), `base/root-old` (a sibling whose name extends the root's),
/// `base/outside` (holds a canary file that must never be served).
struct FileFixture {
    let base: URL
    var root: URL { base.appendingPathComponent("root") }
    var sibling: URL { base.appendingPathComponent("root-old") }
    var outside: URL { base.appendingPathComponent("outside") }

    static let canary = Data("CANARY-c5e1b0d2-never-served".utf8)
    static let siblingSecret = Data("SIBLING-9a7f-never-served".utf8)

    init() throws {
        base = FileManager.default.temporaryDirectory
            .appendingPathComponent("schemekit-files-\(UUID().uuidString)")
        for directory in [root, sibling, outside] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        try Self.canary.write(to: outside.appendingPathComponent("canary.txt"))
        try Self.siblingSecret.write(to: sibling.appendingPathComponent("secret.txt"))
    }

    /// Writes `data` at `relativePath` under the root, creating directories.
    @discardableResult
    func write(_ relativePath: String, _ data: Data) throws -> URL {
        let url = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url
    }

    /// Writes a UTF-8 string at `relativePath` under the root.
    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> URL {
        try write(relativePath, Data(text.utf8))
    }

    /// Creates a symlink at `relativePath` under the root pointing to `destination` (verbatim).
    func symlink(_ relativePath: String, to destination: String) throws {
        let url = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: destination)
    }

    /// Creates a sparse file of `size` bytes with `markers` written at their offsets.
    @discardableResult
    func sparseFile(_ relativePath: String, size: Int64, markers: [(Int64, Data)] = []) throws -> URL {
        let url = root.appendingPathComponent(relativePath)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(size))
        for (offset, data) in markers {
            try handle.seek(toOffset: UInt64(offset))
            try handle.write(contentsOf: data)
        }
        return url
    }

    func remove() {
        try? FileManager.default.removeItem(at: base)
    }
}

/// What one request through a registry produced.
struct FileExchange {
    let sink: RecordingSink
    /// "files" when the handler answered, "not-found" when it passed and the registry answered.
    let respondingHandler: String?

    var status: Int? { sink.response.map { $0.status.code } }
    var headers: HTTPFields { sink.response?.headerFields ?? [:] }
    var body: Data { sink.body }
    var text: String { sink.bodyString }
    var wasPassed: Bool { respondingHandler == "not-found" }
}

/// Sends one request through a fresh registry holding `handler` for the `app` scheme.
func exchange(
    _ handler: some SchemeHandler,
    _ url: String,
    method: HTTPRequest.Method = .get,
    headers: HTTPFields = [:]
) async throws -> FileExchange {
    let registry = SchemeRegistry()
    try registry.register(handler, for: "app")
    let sink = RecordingSink()
    let task = registry.task(for: try SchemeRequest(url, method: method, headerFields: headers), sink: sink)
    await task.run()
    return FileExchange(sink: sink, respondingHandler: task.respondingHandler)
}

/// A sink that discards bytes, counting them, and samples the resident set size as it goes.
final class DiscardingCountingSink: SchemeTaskSink {
    private struct State {
        var bytes: Int64 = 0
        var chunks = 0
        var status: Int?
        var finished = false
        var failure: String?
        var peakRSS: Int64 = 0
    }

    private let state = Locked(State())
    let sampleEvery: Int

    init(sampleEvery: Int = 256) {
        self.sampleEvery = sampleEvery
    }

    func receive(_ response: SchemeResponse) { state.withLock { $0.status = response.status.code } }

    func receive(_ body: SchemeBody) {
        let sample = state.withLock { state -> Bool in
            state.bytes += Int64(body.count)
            state.chunks += 1
            return state.chunks % sampleEvery == 0
        }
        if sample, let rss = ProcessMemory.residentBytes() {
            state.withLock { $0.peakRSS = max($0.peakRSS, rss) }
        }
    }

    func finish() { state.withLock { $0.finished = true } }
    func fail(_ error: any Error) { state.withLock { $0.failure = String(describing: error) } }

    var bytes: Int64 { state.withLock { $0.bytes } }
    var status: Int? { state.withLock { $0.status } }
    var finished: Bool { state.withLock { $0.finished } }
    var failure: String? { state.withLock { $0.failure } }
    var peakRSS: Int64 { state.withLock { $0.peakRSS } }
}

/// Reads this process's memory figures from `/proc/self/status` (Linux).
enum ProcessMemory {
    /// `VmRSS` in bytes, or `nil` where `/proc` is unavailable.
    static func residentBytes() -> Int64? { field("VmRSS:") }

    static func field(_ name: String) -> Int64? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            let digits = line.dropFirst(name.count).filter(\.isNumber)
            return Int64(digits).map { $0 * 1024 }
        }
        return nil
    }
}
