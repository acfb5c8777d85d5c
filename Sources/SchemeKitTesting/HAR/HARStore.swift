import Foundation
import SchemeKit

/// A HAR file being recorded into and replayed from: the archive, its entries prepared for
/// replay, and the file written atomically after every recorded exchange.
///
/// Shared by a ``HARRecorder`` and, in update mode, the ``HARReplayHandler`` whose misses it
/// records: an entry recorded by one request is replayed to the next.
final class HARStore: Sendable {
    struct State {
        var archive: HARArchive
        var entries: [HARReplayEntry]
        /// When each entry's request started, for the entries recorded here; the entries read
        /// from the file count as earlier than all of them.
        var started: [Date] = []
        var recorded = 0
        var skipped = 0
        var lastError: HARError?
    }

    /// The HAR file, or `nil` for an archive that lives in memory only (replay only).
    let fileURL: URL?
    /// The directory body files go to and are read from, or `nil`.
    let directory: URL?
    private let state: Locked<State>

    /// A store for `fileURL` starting from `archive` (whose entries are prepared for replay).
    ///
    /// - Throws: ``HARError`` naming an entry whose body cannot be resolved.
    convenience init(fileURL: URL, archive: HARArchive) throws(HARError) {
        let directory = fileURL.deletingLastPathComponent()
        self.init(
            fileURL: fileURL, directory: directory, archive: archive,
            entries: try Self.prepare(archive, directory: directory))
    }

    /// A store for `fileURL` starting with no entries (the file is written at the first one).
    /// The archive in `fileURL`, to be appended to; a new, empty one when there is no file.
    static func appending(to fileURL: URL, creator: HARCreator) throws(HARError) -> HARStore {
        FileManager.default.fileExists(atPath: fileURL.path)
            ? try HARStore(fileURL: fileURL, archive: HARArchive(contentsOf: fileURL))
            : HARStore(emptyAt: fileURL, creator: creator)
    }

    convenience init(emptyAt fileURL: URL, creator: HARCreator) {
        self.init(
            fileURL: fileURL, directory: fileURL.deletingLastPathComponent(),
            archive: HARArchive(log: HARLog(creator: creator)), entries: [])
    }

    /// A store for an archive read from elsewhere: nothing is written; body files are looked up in
    /// `directory` (none without one).
    convenience init(archive: HARArchive, directory: URL?) throws(HARError) {
        self.init(
            fileURL: nil, directory: directory, archive: archive,
            entries: try Self.prepare(archive, directory: directory))
    }

    private init(fileURL: URL?, directory: URL?, archive: HARArchive, entries: [HARReplayEntry]) {
        self.fileURL = fileURL
        self.directory = directory
        state = Locked(State(archive: archive, entries: entries))
    }

    private static func prepare(_ archive: HARArchive, directory: URL?) throws(HARError) -> [HARReplayEntry] {
        var entries: [HARReplayEntry] = []
        entries.reserveCapacity(archive.entries.count)
        for (index, entry) in archive.entries.enumerated() {
            entries.append(try HARReplayEntry(entry, index: index, directory: directory))
        }
        return entries
    }

    var archive: HARArchive { state.withLock { $0.archive } }

    /// The origin of the HAR's page (``HARMatching/Origin/page``): that of the first entry of the
    /// first page, or of the first entry when the archive lists no page; `nil` without one.
    var pageOrigin: HARURLParts? {
        state.withLock { state in
            let entries = state.archive.entries.lazy
            let page = state.archive.log.pages?.first?.id
            let onPage = entries.filter { page == nil || $0.pageref == page }.compactMap { HARURLParts($0.request.url) }
            return onPage.first ?? entries.compactMap { HARURLParts($0.request.url) }.first
        }
    }
    var entries: [HARReplayEntry] { state.withLock { $0.entries } }
    var recorded: Int { state.withLock { $0.recorded } }
    var skipped: Int { state.withLock { $0.skipped } }
    var lastError: HARError? { state.withLock { $0.lastError } }

    /// Adds `entry`, whose request started at `started`, and rewrites the HAR file atomically,
    /// under the store's lock, so entries recorded concurrently are all in the file.
    ///
    /// Entries are kept in the order their requests started (HAR 1.2's preferred order), not the
    /// order they completed: a large download that ends after a later request still comes
    /// first. Entries read from the file stay ahead of those recorded here.
    func append(_ entry: HAREntry, started: Date) {
        state.withLock { state in
            do throws(HARError) {
                let recordedBefore = state.started.count
                let earlierRecorded = state.started.lastIndex { $0 <= started }.map { $0 + 1 } ?? 0
                let index = state.archive.entries.count - recordedBefore + earlierRecorded
                let prepared = try HARReplayEntry(entry, index: index, directory: directory)
                state.archive.entries.insert(entry, at: index)
                state.entries.insert(prepared, at: index)
                state.started.insert(started, at: earlierRecorded)
                for later in state.entries.indices.dropFirst(index + 1) { state.entries[later].index += 1 }
                if let fileURL { try state.archive.write(to: fileURL) }
                state.recorded += 1
            } catch {
                state.lastError = error
            }
        }
    }

    /// Counts an exchange that was not recorded (stopped, failed, encoded), and why when it is an error.
    func skip(_ error: HARError? = nil) {
        state.withLock { state in
            state.skipped += 1
            if let error { state.lastError = error }
        }
    }

    /// Writes the archive as it is now (an empty archive, when nothing was recorded yet).
    func write() throws(HARError) {
        guard let fileURL else { return }
        try state.withLock { state throws(HARError) in try state.archive.write(to: fileURL) }
    }
}
