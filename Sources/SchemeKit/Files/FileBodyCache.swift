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
        /// Names this head among every head the process built (see
        /// ``SchemeCollectedResponse/representationID``).
        var id: UInt64 = FileBodyCache.nextRepresentationID()
    }

    /// The body in a content coding applied on the fly (gzip of a cached text file), with the `200`
    /// head it is served with.
    struct Variant: Sendable {
        var body: Data
        var head: Head
    }

    struct Entry: Sendable {
        var body: Data
        var head: Head?
        /// Encoded forms of ``body``, by content coding.
        var variants: [String: Variant] = [:]

        /// The bytes this entry holds.
        var cost: Int { variants.values.reduce(body.count) { $0 + $1.body.count } }
    }

    /// Where a request path, asked for with a given set of acceptable codings, was found.
    struct Location: Sendable {
        /// The path of the file opened (a precompressed sibling's, when one was chosen).
        var path: String
        /// The name that gives the type (the original's, for a sibling).
        var name: String
        /// The precompressed coding of the file at ``path``, or `nil` for the original.
        var encoding: LocalFileHandler.PrecompressedEncoding?
        var key: Key
    }

    /// A request path and the codings it was asked with (see ``LocalFileHandler/Negotiation``):
    /// the same path asked with other acceptable codings may be another file.
    struct LocationKey: Hashable, Sendable {
        var requestPath: String
        var negotiation: UInt8
    }

    private struct State {
        var entries = LRUIndex<Key, Entry>()
        var bytes = 0
        var locations: [LocationKey: Location] = [:]
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
                state.bytes -= old.cost
                evicted.append(old)
            }
            state.entries.set(Entry(body: body, head: nil), forKey: key)
            state.bytes += body.count
            evictBeyondLimits(&state, into: &evicted)
        }
        _ = evicted
    }

    private func evictBeyondLimits(_ state: inout State, into evicted: inout [Entry]) {
        while state.bytes > limits.totalCostLimit || state.entries.count > limits.countLimit,
            let oldest = state.entries.oldest, let entry = state.entries.remove(oldest)
        {
            state.bytes -= entry.cost
            evicted.append(entry)
        }
    }

    /// Remembers the `200` head built for `file` (when its body is kept).
    func store(_ head: Head, of file: FileDescriptorStat) {
        state.withLock { state in
            state.entries.update(Key(file)) { $0.head = head }
        }
    }

    /// Keeps `variant` (the body of `file` in `coding`) beside the body, when the body is kept;
    /// it counts towards the limits like the body.
    func store(_ variant: Variant, coding: String, of file: FileDescriptorStat) {
        var evicted: [Entry] = []
        state.withLock { state in
            var added = 0
            state.entries.update(Key(file)) { entry in
                added = variant.body.count - (entry.variants[coding]?.body.count ?? 0)
                entry.variants[coding] = variant
            }
            state.bytes += added
            evictBeyondLimits(&state, into: &evicted)
        }
        _ = evicted
    }

    /// Remembers that `requestPath` (percent-encoded, as requested), asked with the acceptable
    /// codings `negotiation`, names the file at `path`.
    func remember(
        requestPath: String, negotiation: UInt8, path: String, name: String,
        encoding: LocalFileHandler.PrecompressedEncoding?, file: FileDescriptorStat
    ) {
        state.withLock { state in
            // Bounded: stale locations are harmless (each is checked), so a full table just starts over.
            if state.locations.count >= limits.countLimit * 2 { state.locations.removeAll(keepingCapacity: true) }
            state.locations[LocationKey(requestPath: requestPath, negotiation: negotiation)] = Location(
                path: path, name: name, encoding: encoding, key: Key(file))
        }
    }

    /// The entry for `requestPath` asked with `negotiation` when it was remembered and the file
    /// there, checked with one `lstat` (a symbolic link never matches), is still the one whose bytes
    /// are kept.
    func entry(forRequestPath requestPath: String, negotiation: UInt8) -> (
        FileDescriptorStat, location: Location, entry: Entry
    )? {
        let key = LocationKey(requestPath: requestPath, negotiation: negotiation)
        guard let location = state.withLock({ $0.locations[key] }),
            let file = FileDescriptorStat(lstatPath: location.path), file.kind == .regular,
            Key(file) == location.key
        else { return nil }
        guard let entry = entry(of: file) else { return nil }
        return (file, location, entry)
    }

    /// The number of bodies kept and their total size (encoded variants included).
    var usage: (count: Int, bytes: Int) { state.withLock { ($0.entries.count, $0.bytes) } }

    private static let representationIDs = Locked<UInt64>(0)

    /// A new representation id: never 0, never given twice in a process.
    static func nextRepresentationID() -> UInt64 {
        representationIDs.withLock {
            $0 += 1
            return $0
        }
    }
}
