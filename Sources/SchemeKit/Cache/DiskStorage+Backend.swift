import Dispatch
package import Foundation
import Synchronization

extension DiskStorage {
    /// Values on disk, one file per key, least recently used evicted first.
    ///
    /// ## Contract
    /// - Writes are atomic: the entry is written to a temporary file in the same directory,
    ///   `fsync`ed, then renamed over the entry's file. A crash at any moment leaves the old
    ///   entry, the new one, or none — never a torn one — and a reader in another process sees
    ///   the old file or the new one.
    /// - Reads verify the entry's header (magic, key, lengths, header checksum), the file's
    ///   length and the data checksum; an entry that fails is deleted and reported as a miss.
    /// - Entry file names are a 128-bit FNV-1a hash of the key (``FNV1a/hash128Hex(_:)``); the
    ///   key is stored in the entry and checked, so a hash collision is a miss, never a wrong value.
    /// - Expiry and last access live in the backend's own index (file dates cannot be set
    ///   reliably on Linux), persisted as `index.json` in the directory so they survive restarts.
    ///   The index file is written *debounced*: a change marks it dirty and a write follows
    ///   ``indexWriteDelay`` later on the backend's own serial queue, which snapshots the index
    ///   under the lock and encodes, writes, `fsync`s and renames it outside the lock. Many
    ///   changes in a burst cost one write. Lookups update access order in memory; it reaches the
    ///   file with the next write, ``flush()`` or deinitialisation. After a crash the index may
    ///   lag the entry files by one debounce interval: entries it misses are read back from their
    ///   verified headers, entries it lists whose files are gone are skipped, so a stale index
    ///   costs access-order precision, never a wrong or torn value.
    /// - Thread-safe: the index sits behind a lock that guards memory only; entry files are
    ///   written and `fsync`ed outside it, and only the `rename` into place (which must be
    ///   ordered with the index) and `unlink`s of removed files happen under it.
    ///   Methods do blocking file I/O: call them off the main thread and off Swift's cooperative
    ///   pool (``ImageCacheHandler`` runs them on a dispatch queue of its own).
    ///
    /// Time comes from `C`, so tests drive expiry with a manual clock instead of sleeping.
    package final class Backend<C: Clock>: Sendable where C.Duration == Duration {
        struct Entry: Sendable {
            var key: String
            var size: Int
            var expiresAt: Date?
            var accessedAt: Date
            /// Changes with every store, so a reader that found a corrupt file does not delete a
            /// newer entry written meanwhile.
            var serial: UInt64
        }

        struct State: Sendable {
            /// By entry file name.
            var entries = LRUIndex<String, Entry>()
            var totalSize = 0
            var nextSerial: UInt64 = 1
            /// The index changed since `index.json` was last written.
            var indexDirty = false
            /// A debounced index write is queued.
            var indexWriteQueued = false

            mutating func insert(_ entry: Entry, file: String) {
                if let old = entries.remove(file) { totalSize -= old.size }
                entries.set(entry, forKey: file)
                totalSize += entry.size
            }

            @discardableResult
            mutating func remove(file: String) -> Entry? {
                guard let old = entries.remove(file) else { return nil }
                totalSize -= old.size
                return old
            }
        }

        /// The directory, limits and defaults.
        package let config: Config
        let time: CacheTimeSource<C>
        private let directoryPath: String
        private let state: Locked<State>
        /// Serialises `index.json` writes (debounced ones and ``flush()``), off the caller's thread.
        private let indexQueue = DispatchQueue(label: "SchemeKit.DiskStorage.index")

        /// How long after a change the index file is written: changes within it share one write.
        static var indexWriteDelay: DispatchTimeInterval { .milliseconds(50) }

        /// Opens (creating when needed) the cache directory and loads its index.
        ///
        /// Entries missing from the index are read back from their headers; torn or corrupt
        /// entry files and stale temporary files are deleted.
        ///
        /// - Parameters:
        ///   - config: The directory, limits and default expiration.
        ///   - clock: The clock expiry is measured with.
        /// - Throws: ``DiskStorageError`` when the directory cannot be created.
        package init(config: Config, clock: C) throws(DiskStorageError) {
            self.config = config
            self.time = CacheTimeSource(clock: clock)
            let path = config.directory.standardizedFileURL.path
            self.directoryPath = path
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw .cannotCreateDirectory(path, error)
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw .cannotCreateDirectory(path, CocoaError(.fileWriteFileExists))
            }
            var initial = Self.load(directory: path, staleTemporaryFileAge: config.staleTemporaryFileAge)
            self.state = Locked(State())
            state.withLock { state in
                swap(&state, &initial)
                evictIfNeeded(&state, now: time.now())
            }
            writeIndex(force: true)
        }

        deinit {
            // No other reference exists, so no write can run concurrently: write directly (a
            // `sync` on the index queue could deadlock when the last reference dies on it).
            writeIndex(force: true)
        }

        // MARK: Verbs

        /// Stores `data` for `key`, replacing any previous value, and evicts what no longer fits.
        ///
        /// - Parameters:
        ///   - data: The value.
        ///   - key: The key (at most 16 KiB of UTF-8).
        ///   - expiration: When the entry expires. Default: ``Config/expiration``.
        /// - Throws: ``DiskStorageError`` when the entry is larger than the size limit, or the file
        ///   cannot be written (directory gone or read-only, disk full). The previous value, if
        ///   any, is kept then.
        package func store(_ data: Data, forKey key: String, expiration: CacheExpiration? = nil)
            throws(DiskStorageError)
        {
            let keyLength = key.utf8.count
            guard keyLength <= DiskEntryHeader.maximumKeyLength else { throw .keyTooLong(keyLength) }
            let now = time.now()
            let header = DiskEntryHeader(
                key: key,
                dataLength: UInt64(data.count),
                checksum: FNV1a.checksum(data),
                storedAt: now,
                expiresAt: (expiration ?? config.expiration).expiryDate(storedAt: now)
            )
            guard header.fileSize <= config.sizeLimit else {
                throw .entryTooLarge(key, size: header.fileSize, limit: config.sizeLimit)
            }
            let file = DiskStorage.fileName(forKey: key)
            let temporary = "\(directoryPath)/\(DiskStorage.temporaryPrefix)\(UUID().uuidString)"
            // Written and fsynced outside the lock; only the rename is ordered with the index.
            let writer: AtomicFile.Writer
            do {
                writer = try AtomicFile.Writer(temporaryPath: temporary)
                try writer.append(header.encoded())
                try writer.append(data)
                try writer.seal()
            } catch {
                throw .writeFailed(key, error)
            }
            let schedule = try state.withLock { (state: inout State) throws(DiskStorageError) -> Bool in
                do {
                    // A cache may lose its newest entry on power loss, never serve a torn one.
                    try writer.commit(to: path(of: file), durability: .complete)
                } catch {
                    throw .writeFailed(key, error)
                }
                let entry = Entry(
                    key: key, size: header.fileSize, expiresAt: header.expiresAt, accessedAt: now,
                    serial: state.nextSerial)
                state.nextSerial += 1
                state.insert(entry, file: file)
                evictIfNeeded(&state, now: now)
                return markIndexDirty(&state)
            }
            if schedule { scheduleIndexWrite() }
        }

        /// The value for `key`, or `nil` when absent, expired, torn or corrupted (the last three
        /// are deleted). A hit makes the entry the most recently used.
        ///
        /// An entry another process wrote into the directory after this backend opened it is
        /// found too, and joins the index.
        package func value(forKey key: String) -> Data? {
            entry(forKey: key)?.data
        }

        /// The value for `key` with its expiry date; see ``value(forKey:)``.
        func entry(forKey key: String) -> (data: Data, expiresAt: Date?)? {
            let file = DiskStorage.fileName(forKey: key)
            let now = time.now()
            var schedule = false
            let lookup = state.withLock { state -> DiskStorage.Lookup in
                guard let entry = state.entries[file] else { return .probe }
                guard entry.key == key else { return .miss }
                if let expiresAt = entry.expiresAt, expiresAt <= now {
                    state.remove(file: file)
                    DiskFileIO.remove(path(of: file))
                    schedule = markIndexDirty(&state)
                    return .miss
                }
                state.entries.touch(file)
                state.entries.update(file) { $0.accessedAt = now }
                return .indexed(serial: entry.serial)
            }
            if schedule { scheduleIndexWrite() }
            let serial: UInt64?
            switch lookup {
            case .miss: return nil
            case .indexed(let found): serial = found
            case .probe: serial = nil
            }
            guard let bytes = DiskFileIO.readFile(path(of: file)) else {
                if let serial { drop(file, serial: serial, deleteFile: false) }
                return nil
            }
            guard let header = DiskEntryHeader.decode(bytes), header.key == key,
                header.fileSize == bytes.count
            else {
                // Torn, corrupt, or another key's entry with the same hash (kept then).
                let foreign = DiskEntryHeader.decode(bytes).map { $0.key != key && $0.fileSize == bytes.count } ?? false
                if !foreign { drop(file, serial: serial, deleteFile: true) }
                return nil
            }
            let data = bytes.subdata(in: header.headerLength..<bytes.count)
            guard FNV1a.checksum(data) == header.checksum else {
                drop(file, serial: serial, deleteFile: true)
                return nil
            }
            if let expiresAt = header.expiresAt, expiresAt <= now {
                drop(file, serial: serial, deleteFile: true)
                return nil
            }
            if serial == nil {
                adopt(header, file: file, now: now)
            }
            return (data, header.expiresAt)
        }

        /// Removes the value for `key`, if any.
        package func remove(forKey key: String) {
            let file = DiskStorage.fileName(forKey: key)
            let schedule = state.withLock { state -> Bool in
                if let entry = state.entries[file], entry.key != key { return false }
                state.remove(file: file)
                DiskFileIO.remove(path(of: file))
                return markIndexDirty(&state)
            }
            if schedule { scheduleIndexWrite() }
        }

        /// Removes every entry file in the directory, including entries other processes wrote.
        package func removeAll() {
            let schedule = state.withLock { state -> Bool in
                state.entries.removeAll()
                state.totalSize = 0
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directoryPath)) ?? []
                for name in names where name.hasSuffix(DiskStorage.entrySuffix) {
                    DiskFileIO.remove(path(of: name))
                }
                return markIndexDirty(&state)
            }
            if schedule { scheduleIndexWrite() }
        }

        /// Removes every expired entry.
        ///
        /// - Returns: The number of entries removed.
        @discardableResult
        package func removeExpired() -> Int {
            let now = time.now()
            let (removed, schedule) = state.withLock { state -> (Int, Bool) in
                let removed = removeExpired(&state, now: now)
                return (removed, removed > 0 && markIndexDirty(&state))
            }
            if schedule { scheduleIndexWrite() }
            return removed
        }

        /// The total size of the entry files, in bytes (expired entries not yet dropped included).
        package var totalSize: Int { state.withLock { $0.totalSize } }

        /// The number of entries (expired entries not yet dropped included).
        package var count: Int { state.withLock { $0.entries.count } }

        /// Writes the index now, with the latest access times, and returns when it is on disk.
        /// Also done (debounced) after every change and when the backend is deinitialised.
        package func flush() {
            indexQueue.sync { writeIndex(force: true) }
        }

        // MARK: Internals

        /// The path of the entry file `file`.
        func path(of file: String) -> String {
            "\(directoryPath)/\(file)"
        }

        private func drop(_ file: String, serial: UInt64?, deleteFile: Bool) {
            let schedule = state.withLock { state -> Bool in
                let current = state.entries[file]
                // A newer store replaced the file meanwhile: leave it alone.
                if let current, current.serial != serial { return false }
                if current == nil, serial != nil { return false }
                state.remove(file: file)
                if deleteFile { DiskFileIO.remove(path(of: file)) }
                return markIndexDirty(&state)
            }
            if schedule { scheduleIndexWrite() }
        }

        private func adopt(_ header: DiskEntryHeader, file: String, now: Date) {
            let schedule = state.withLock { state -> Bool in
                guard state.entries[file] == nil else { return false }
                let entry = Entry(
                    key: header.key, size: header.fileSize, expiresAt: header.expiresAt, accessedAt: now,
                    serial: state.nextSerial)
                state.nextSerial += 1
                state.insert(entry, file: file)
                evictIfNeeded(&state, now: now)
                return markIndexDirty(&state)
            }
            if schedule { scheduleIndexWrite() }
        }

        private func removeExpired(_ state: inout State, now: Date) -> Int {
            var removed = 0
            for (file, entry) in state.entries.entriesOldestFirst {
                if let expiresAt = entry.expiresAt, expiresAt <= now {
                    state.remove(file: file)
                    DiskFileIO.remove(path(of: file))
                    removed += 1
                }
            }
            return removed
        }

        private func evictIfNeeded(_ state: inout State, now: Date) {
            guard state.totalSize > config.sizeLimit else { return }
            _ = removeExpired(&state, now: now)
            while state.totalSize > config.sizeLimit, let oldest = state.entries.oldest {
                state.remove(file: oldest)
                DiskFileIO.remove(path(of: oldest))
            }
        }

        /// Marks the index changed; returns whether the caller must queue a write (after leaving
        /// the lock) because none is queued yet.
        private func markIndexDirty(_ state: inout State) -> Bool {
            state.indexDirty = true
            guard !state.indexWriteQueued else { return false }
            state.indexWriteQueued = true
            return true
        }

        /// Queues the debounced index write.
        private func scheduleIndexWrite() {
            indexQueue.asyncAfter(deadline: .now() + Self.indexWriteDelay) { [weak self] in
                self?.writeIndex(force: false)
            }
        }

        /// Writes `index.json` atomically when it changed (or always, with `force`): a snapshot
        /// under the lock, then encoding, `fsync` and rename outside it. Runs on the index queue
        /// (or in `init`/`deinit`, when nothing else can). Failures are ignored: the index is a
        /// hint that the entry headers can rebuild.
        private func writeIndex(force: Bool) {
            let snapshot = state.withLock { state -> [(key: String, value: Entry)]? in
                state.indexWriteQueued = false
                guard state.indexDirty || force else { return nil }
                state.indexDirty = false
                return state.entries.entriesOldestFirst
            }
            guard let snapshot else { return }
            let index = DiskIndexFile(
                entries: snapshot.map { file, entry in
                    DiskIndexFile.Entry(
                        file: file,
                        key: entry.key,
                        size: entry.size,
                        expires: entry.expiresAt.map(DiskEntryHeader.milliseconds),
                        accessed: DiskEntryHeader.milliseconds(entry.accessedAt)
                    )
                })
            guard let data = try? JSONEncoder().encode(index) else { return }
            let temporary = "\(directoryPath)/\(DiskStorage.temporaryPrefix)index-\(UUID().uuidString)"
            // The index may lag the entries (see the contract); a failed write is retried with the next.
            try? AtomicFile.write(
                [data], to: path(of: DiskIndexFile.name), temporaryPath: temporary, durability: .complete)
        }

        /// Reads the directory: the index where it matches the files, entry headers elsewhere.
        private static func load(directory: String, staleTemporaryFileAge: Duration) -> State {
            let manager = FileManager.default
            var indexed: [String: (entry: DiskIndexFile.Entry, rank: Int)] = [:]
            if let data = manager.contents(atPath: "\(directory)/\(DiskIndexFile.name)"),
                let index = try? JSONDecoder().decode(DiskIndexFile.self, from: data),
                index.version == DiskIndexFile.currentVersion
            {
                for (rank, entry) in index.entries.enumerated() { indexed[entry.file] = (entry, rank) }
            }
            var found: [(file: String, entry: Entry, rank: Int)] = []
            let names = (try? manager.contentsOfDirectory(atPath: directory)) ?? []
            let staleBefore = Date().addingTimeInterval(-staleTemporaryFileAge.timeInterval)
            for name in names {
                let path = "\(directory)/\(name)"
                let attributes = try? manager.attributesOfItem(atPath: path)
                if name.hasPrefix(DiskStorage.temporaryPrefix) {
                    let modified = attributes?[.modificationDate] as? Date ?? .distantPast
                    if modified < staleBefore { DiskFileIO.remove(path) }
                    continue
                }
                guard name.hasSuffix(DiskStorage.entrySuffix), let size = (attributes?[.size] as? NSNumber)?.intValue
                else {
                    continue
                }
                if let (known, rank) = indexed[name], known.size == size,
                    DiskStorage.fileName(forKey: known.key) == name
                {
                    found.append(
                        (
                            name,
                            Entry(
                                key: known.key, size: size,
                                expiresAt: known.expires.map(DiskEntryHeader.date),
                                accessedAt: DiskEntryHeader.date(known.accessed), serial: 0),
                            rank
                        ))
                    continue
                }
                // Not in the index (written after it, or the index is lost): trust the header
                // only when it is intact and the file has exactly the announced length.
                guard let prefix = DiskFileIO.readPrefix(path, count: 8),
                    let headerLength = DiskEntryHeader.announcedLength(in: prefix),
                    let headerBytes = DiskFileIO.readPrefix(path, count: headerLength),
                    let header = DiskEntryHeader.decode(headerBytes),
                    header.fileSize == size, DiskStorage.fileName(forKey: header.key) == name
                else {
                    DiskFileIO.remove(path)
                    continue
                }
                found.append(
                    (
                        name,
                        Entry(
                            key: header.key, size: size, expiresAt: header.expiresAt, accessedAt: header.storedAt,
                            serial: 0),
                        Int.max
                    ))
            }
            // Oldest access first; ties keep the index's order (it lists oldest first), then entries
            // the index did not know.
            found.sort { ($0.entry.accessedAt, $0.rank) < ($1.entry.accessedAt, $1.rank) }
            var state = State()
            for (file, entry, _) in found {
                var entry = entry
                entry.serial = state.nextSerial
                state.nextSerial += 1
                state.insert(entry, file: file)
            }
            return state
        }
    }
}
