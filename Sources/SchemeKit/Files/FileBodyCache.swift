import Foundation

/// The bodies of small files in memory, keyed by what `fstat` said about the open file, with the
/// response head last built for each.
///
/// The key is device, inode, size and modification time (nanoseconds): whatever changes a file on
/// disk changes its key, so an entry is never served for other bytes than it holds, and an entry
/// for an old version is never looked up again and ages out. Storage is core's LRU index
/// (``LRUIndex``), bounded by bytes and count. Beside the body, an entry keeps the head of a plain
/// `200` for the name and encoding it was last served under, so a repeated request skips building
/// validators and types again.
///
/// Like nginx's `open_file_cache`, it also remembers which file a request path was found at
/// (only a regular file right at the path's decoded location under a fixed root): a repeated
/// request then checks that file with one `lstat` instead of opening, `fstat`ing and closing it,
/// and uses the entry only when device, inode, size and modification time are still those of the
/// bytes it holds — bytes that were read through the resolver's safe walk. Thread-safe.
final class FileBodyCache: Sendable {
    /// What identifies a file's bytes.
    struct Key: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedNanoseconds: Int64

        init(_ file: FileDescriptorStat) {
            device = file.device
            inode = file.inode
            size = file.size
            modifiedNanoseconds = file.modifiedNanoseconds
        }
    }

    /// A `200` head, and the name and encoding it was built for.
    struct Head: Sendable {
        var name: String
        var contentCoding: String?
        var response: SchemeResponse
    }

    struct Entry: Sendable {
        var body: Data
        var head: Head?
    }

    /// Where a request path was found.
    struct Location: Sendable {
        var path: String
        var name: String
        var key: Key
    }

    private struct State {
        var entries = LRUIndex<Key, Entry>()
        var bytes = 0
        var locations: [String: Location] = [:]
    }

    /// The largest body kept, in bytes.
    let maxFileSize: Int
    private let limits: LocalFileHandler.BodyCache
    private let state = Locked(State())

    init(_ limits: LocalFileHandler.BodyCache) {
        maxFileSize = limits.maxFileSize
        self.limits = limits
    }

    /// Whether `file` is small enough to be kept.
    func admits(_ file: FileDescriptorStat) -> Bool {
        file.kind == .regular && file.size > 0 && file.size <= Int64(maxFileSize)
    }

    /// The entry of `file`, when kept; a hit makes it the most recently used.
    func entry(of file: FileDescriptorStat) -> Entry? {
        state.withLock { $0.entries.touch(Key(file)) }
    }

    /// The whole body of `file`, when kept.
    func body(of file: FileDescriptorStat) -> Data? {
        entry(of: file)?.body
    }

    /// Keeps `body` as the whole body of `file`, evicting the least recently used entries beyond
    /// the limits.
    ///
    /// - Precondition: `body.count == file.size`.
    func store(_ body: Data, of file: FileDescriptorStat) {
        precondition(Int64(body.count) == file.size, "a cached body is the whole file")
        guard body.count <= limits.totalCostLimit else { return }
        let key = Key(file)
        // Bodies are released outside the lock.
        var evicted: [Entry] = []
        state.withLock { state in
            if let old = state.entries.remove(key) {
                state.bytes -= old.body.count
                evicted.append(old)
            }
            state.entries.set(Entry(body: body, head: nil), forKey: key)
            state.bytes += body.count
            while state.bytes > limits.totalCostLimit || state.entries.count > limits.countLimit,
                let oldest = state.entries.oldest, let entry = state.entries.remove(oldest)
            {
                state.bytes -= entry.body.count
                evicted.append(entry)
            }
        }
        _ = evicted
    }

    /// Remembers the `200` head built for `file` (when its body is kept).
    func store(_ head: Head, of file: FileDescriptorStat) {
        state.withLock { state in
            state.entries.update(Key(file)) { $0.head = head }
        }
    }

    /// Remembers that `requestPath` (percent-encoded, as requested) names the file at `path`.
    func remember(requestPath: String, path: String, name: String, file: FileDescriptorStat) {
        state.withLock { state in
            // Bounded: stale locations are harmless (each is checked), so a full table just starts over.
            if state.locations.count >= limits.countLimit * 2 { state.locations.removeAll(keepingCapacity: true) }
            state.locations[requestPath] = Location(path: path, name: name, key: Key(file))
        }
    }

    /// The entry for `requestPath` when it was remembered and the file there, checked with one
    /// `lstat` (a symbolic link never matches), is still the one whose bytes are kept.
    func entry(forRequestPath requestPath: String) -> (FileDescriptorStat, name: String, entry: Entry)? {
        guard let location = state.withLock({ $0.locations[requestPath] }),
            let file = FileDescriptorStat(lstatPath: location.path), file.kind == .regular,
            Key(file) == location.key
        else { return nil }
        guard let entry = entry(of: file) else { return nil }
        return (file, location.name, entry)
    }

    /// The number of bodies kept and their total size.
    var usage: (count: Int, bytes: Int) { state.withLock { ($0.entries.count, $0.bytes) } }
}
