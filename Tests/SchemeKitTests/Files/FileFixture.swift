import Foundation
import GuardTestFixtures
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

/// A sink that discards bytes, counting them, and lends the handler its own body memory so that
/// it can tell how many body bytes are alive at once: the handler's share of the memory,
/// whatever else the test process is doing (other suites run beside it in a plain `swift test`,
/// which makes the process's resident size a poor measure of one handler).
final class DiscardingCountingSink: SchemeTaskSink, SchemeBodyAllocator {
    private struct State {
        var bytes: Int64 = 0
        var chunks = 0
        var status: Int?
        var finished = false
        var failure: String?
    }

    private let state = Locked(State())
    private let live = LiveBytes()

    func receive(_ response: SchemeResponse) { state.withLock { $0.status = response.status.code } }

    func receive(_ body: SchemeBody) {
        state.withLock { state in
            state.bytes += Int64(body.count)
            state.chunks += 1
        }
    }

    func finish() { state.withLock { $0.finished = true } }
    func fail(_ error: any Error) { state.withLock { $0.failure = String(describing: error) } }

    var bodyAllocator: (any SchemeBodyAllocator)? { self }

    func makeBody<Failure: Error>(
        count: Int, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) -> SchemeBody {
        let storage = CountedStorage(count: count, live: live)
        let written = try fill(storage.memory)
        return written == 0 ? .empty : SchemeBody(engineBuffer: CountedBuffer(storage: storage, range: 0..<written))
    }

    var bytes: Int64 { state.withLock { $0.bytes } }
    var status: Int? { state.withLock { $0.status } }
    var finished: Bool { state.withLock { $0.finished } }
    var failure: String? { state.withLock { $0.failure } }
    /// The most body bytes that were alive at one time (allocated by this sink, not yet freed).
    var peakLiveBytes: Int { live.peak }
}

/// Body bytes alive at once, and the peak.
final class LiveBytes: Sendable {
    private let counts = Locked((now: 0, peak: 0))
    func add(_ delta: Int) {
        counts.withLock {
            $0.now += delta
            $0.peak = max($0.peak, $0.now)
        }
    }
    var peak: Int { counts.withLock { $0.peak } }
}

/// Memory that reports its allocation and its release to a ``LiveBytes``.
final class CountedStorage: Sendable {
    nonisolated(unsafe) let memory: UnsafeMutableRawBufferPointer
    let live: LiveBytes

    init(count: Int, live: LiveBytes) {
        memory = .allocate(byteCount: count, alignment: 16)
        self.live = live
        live.add(count)
    }

    deinit {
        live.add(-memory.count)
        memory.deallocate()
    }
}

/// A body in ``CountedStorage``.
struct CountedBuffer: SchemeBodyBuffer {
    let storage: CountedStorage
    let range: Range<Int>

    var count: Int { range.count }

    func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(rebasing: storage.memory[range]))
    }

    func slice(_ range: Range<Int>) -> CountedBuffer {
        CountedBuffer(
            storage: storage,
            range: (self.range.lowerBound + range.lowerBound)..<(self.range.lowerBound + range.upperBound))
    }
}
