import Foundation
import HTTPTypes
import SchemeKit
import Synchronization

/// A bounded in-memory cache of small files in front of the file handler.
///
/// It stores only what the file handler itself answered — a whole 200 for a plain GET whose
/// length equals the resolved file's size — keyed by request path, and validates every hit with
/// one `stat` of the file's real path (size, modification time and inode must be unchanged).
/// Requests with `Range` or conditional headers, HEAD of uncached paths and anything else go
/// straight to the file handler. Entries are evicted oldest-first beyond the byte capacity.
struct SmallFileCacheHandler: SchemeHandler {
    let files: any SchemeHandler
    let resolver: ServePathResolver
    let limit: Int
    let storage: Storage

    init(files: any SchemeHandler, resolver: ServePathResolver, limit: Int, capacity: Int) {
        self.files = files
        self.resolver = resolver
        self.limit = limit
        self.storage = Storage(capacity: capacity)
    }

    var name: String { "files" }

    /// A cached response.
    struct Entry: Sendable {
        let realPath: String
        let stamp: FileStamp
        let head: SchemeResponse
        let body: Data
    }

    /// The entries, oldest first for eviction.
    final class Storage: Sendable {
        private struct State {
            var entries: [String: Entry] = [:]
            var order: [String] = []
            var bytes = 0
        }
        private let state = Mutex(State())
        let capacity: Int

        init(capacity: Int) { self.capacity = capacity }

        func entry(for key: String) -> Entry? { state.withLock { $0.entries[key] } }

        func store(_ entry: Entry, for key: String) {
            state.withLock { state in
                if let old = state.entries.removeValue(forKey: key) {
                    state.bytes -= old.body.count
                    state.order.removeAll { $0 == key }
                }
                while state.bytes + entry.body.count > capacity, !state.order.isEmpty {
                    let oldest = state.order.removeFirst()
                    state.bytes -= state.entries.removeValue(forKey: oldest)?.body.count ?? 0
                }
                state.entries[key] = entry
                state.order.append(key)
                state.bytes += entry.body.count
            }
        }

        func remove(_ key: String) {
            state.withLock { state in
                if let old = state.entries.removeValue(forKey: key) {
                    state.bytes -= old.body.count
                    state.order.removeAll { $0 == key }
                }
            }
        }
    }

    func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
        let fields = request.headerFields
        guard fields[.range] == nil, fields[.ifNoneMatch] == nil, fields[.ifModifiedSince] == nil else {
            return try await files.handle(request, writer: writer)
        }
        let key = request.path
        if let entry = storage.entry(for: key) {
            if FileStamp(path: entry.realPath) == entry.stamp {
                try await writer.writeHead(entry.head)
                if request.method != .head { try await writer.write(entry.body) }
                try await writer.finish()
                return .handled
            }
            storage.remove(key)
        }
        guard request.method == .get, case .file(let realPath, let stamp) = resolver.resolve(key), stamp.size <= limit
        else {
            return try await files.handle(request, writer: writer)
        }
        let recorder = RecordingWriter(inner: writer)
        let outcome = try await files.handle(request, writer: recorder)
        if outcome == .handled, let (head, body) = recorder.recorded, head.status == .ok,
            Int64(body.count) == stamp.size,
            FileStamp(path: realPath) == stamp
        {
            storage.store(Entry(realPath: realPath, stamp: stamp, head: head, body: body), for: key)
        }
        return outcome
    }
}

/// Forwards every write and keeps a copy of a small response.
private final class RecordingWriter<Inner: SchemeResponseWriter>: SchemeResponseWriter, Sendable {
    private struct State {
        var head: SchemeResponse?
        var body = Data()
        var finished = false
    }
    let inner: Inner
    private let state = Mutex(State())

    init(inner: Inner) { self.inner = inner }

    var recorded: (SchemeResponse, Data)? {
        state.withLock { state in
            guard state.finished, let head = state.head else { return nil }
            return (head, state.body)
        }
    }

    func writeHead(_ response: SchemeResponse) async throws {
        try await inner.writeHead(response)
        state.withLock { $0.head = response }
    }

    func write(_ data: Data) async throws {
        try await inner.write(data)
        state.withLock { $0.body.append(data) }
    }

    func makeBody<Failure: Error>(
        count: Int, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) -> Data {
        try inner.makeBody(count: count, fill: fill)
    }

    func finish() async throws {
        try await inner.finish()
        state.withLock { $0.finished = true }
    }

    func fail(_ error: any Error) async throws {
        try await inner.fail(error)
    }
}
