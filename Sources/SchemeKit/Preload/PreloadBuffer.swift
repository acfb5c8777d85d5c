import Foundation

/// The state of one shared fetch: a broadcast buffer with one cursor per attached task, plus who
/// holds the fetch alive. A plain value type, tested without threads; ``PreloadFetch`` wraps it in
/// a lock.
///
/// Bounded per fetch, following the slowest reader:
/// - Chunks are kept from the start while new tasks may still join (they must get the whole body)
///   and the buffer is within ``highWatermark``. Past it, chunks every cursor has passed are
///   dropped; from then on the fetch is *truncated* and takes no new cursor (a late request
///   starts a fetch of its own rather than getting a body without its start). Once the fetch is
///   closed to joiners, passed chunks are dropped at once.
/// - The upstream must wait (``upstreamMustWait``) while the slowest cursor — or, for an
///   unclaimed preload, the whole buffer — has ``highWatermark`` bytes or more unread, until it is
///   down to ``lowWatermark`` (``upstreamMayResume``). So a fetch holds at most about
///   `highWatermark` plus one chunk, however large the body and however slow its readers.
struct PreloadBuffer {
    /// What a cursor gets next.
    enum Update {
        case head(SchemeResponse)
        case chunks([Data])
        case finished
        case failed(any Error)
    }

    /// What to do after a holder left.
    enum ReleaseAction: Equatable {
        case none
        case cancelUpstream
    }

    private(set) var head: SchemeResponse?
    private(set) var failure: (any Error)?
    private(set) var isComplete = false
    private var chunks: [Data] = []
    /// The absolute index of `chunks[0]`.
    private var base = 0
    private(set) var bufferedBytes = 0
    private(set) var receivedBytes = 0
    private var cursors: [Int: Int] = [:]
    private var nextID = 0
    /// Whether an unclaimed preload holds the fetch.
    private(set) var preloadHold: Bool
    /// Whether new tasks may still attach (the fetch is in the preloader's table).
    private(set) var joinable = true
    private(set) var cancelled = false
    /// The cap on unread bytes before the upstream waits.
    let highWatermark: Int
    /// Unread bytes at which a waiting upstream continues.
    let lowWatermark: Int

    init(preloadHold: Bool, highWatermark: Int = .max, lowWatermark: Int? = nil) {
        self.preloadHold = preloadHold
        self.highWatermark = max(1, highWatermark)
        self.lowWatermark = min(lowWatermark ?? self.highWatermark / 4, self.highWatermark)
    }

    /// Whether chunks from the start were dropped: new cursors can no longer get the whole body.
    var isTruncated: Bool { base > 0 }

    /// Bytes the slowest cursor has not read yet; every buffered byte while no cursor is attached.
    var unreadBytes: Int {
        guard let low = cursors.values.min() else { return bufferedBytes }
        var unread = 0
        for chunk in chunks[max(0, low - base)...] { unread += chunk.count }
        return unread
    }

    /// Whether the upstream must stop reading now (the slowest reader is a window behind).
    var upstreamMustWait: Bool { !isEnded && unreadBytes >= highWatermark }

    /// Whether a waiting upstream may continue.
    var upstreamMayResume: Bool { isEnded || unreadBytes <= lowWatermark }

    var isEnded: Bool { isComplete || failure != nil || cancelled }
    var holders: Int { cursors.count + (preloadHold ? 1 : 0) }
    var attachedCount: Int { cursors.count }

    // MARK: Upstream side

    mutating func receive(head: SchemeResponse) {
        guard !isEnded, self.head == nil else { return }
        self.head = head
    }

    /// Appends a chunk; returns the growth of the buffer in bytes.
    mutating func receive(_ chunk: Data) -> Int {
        guard !isEnded, !chunk.isEmpty else { return 0 }
        chunks.append(chunk)
        bufferedBytes += chunk.count
        receivedBytes += chunk.count
        return chunk.count - trim()
    }

    mutating func complete() {
        guard !isEnded else { return }
        isComplete = true
    }

    mutating func fail(_ error: any Error) {
        guard !isEnded else { return }
        failure = error
    }

    // MARK: Holders

    /// Attaches a new cursor at the start; `nil` once the fetch was cancelled or closed to joiners.
    /// The first attach claims a preload (its hold passes to the task).
    mutating func attach() -> (id: Int, claimedPreload: Bool)? {
        guard joinable, !cancelled, !isTruncated else { return nil }
        let id = nextID
        nextID += 1
        cursors[id] = base
        let claimed = preloadHold
        preloadHold = false
        return (id, claimed)
    }

    /// Removes a cursor; cancels the upstream when it was the last holder of an unfinished fetch.
    /// Returns the bytes freed and the action.
    mutating func detach(_ id: Int) -> (freed: Int, action: ReleaseAction) {
        guard cursors.removeValue(forKey: id) != nil else { return (0, .none) }
        return releaseIfUnheld()
    }

    /// Drops the preload hold (expiry, eviction, cancelPreload).
    mutating func releasePreload() -> (freed: Int, action: ReleaseAction) {
        preloadHold = false
        return releaseIfUnheld()
    }

    /// Closes the fetch to new joiners; chunks every cursor passed can go from now on.
    mutating func close() -> Int {
        joinable = false
        return trim()
    }

    private mutating func releaseIfUnheld() -> (freed: Int, action: ReleaseAction) {
        guard holders == 0 else { return (trim(), .none) }
        let action: ReleaseAction = isEnded ? .none : .cancelUpstream
        if action == .cancelUpstream { cancelled = true }
        joinable = false
        return (dropAll(), action)
    }

    private mutating func dropAll() -> Int {
        let freed = bufferedBytes
        base += chunks.count
        chunks = []
        bufferedBytes = 0
        return freed
    }

    /// Drops chunks every cursor has passed, when no joiner can come any more or the buffer is
    /// past its high watermark (which truncates the fetch for joiners).
    private mutating func trim() -> Int {
        guard !preloadHold else { return 0 }
        guard !joinable || (bufferedBytes > highWatermark && !cursors.isEmpty) else { return 0 }
        let low = cursors.values.min() ?? (base + chunks.count)
        let count = low - base
        guard count > 0 else { return 0 }
        let freed = chunks[..<count].reduce(0) { $0 + $1.count }
        chunks.removeFirst(count)
        base = low
        bufferedBytes -= freed
        return freed
    }

    // MARK: Cursor side

    /// Whether ``next(for:headSent:)`` would return an update now.
    func hasUpdate(for id: Int, headSent: Bool) -> Bool {
        guard let position = cursors[id] else { return true }
        if cancelled || failure != nil { return true }
        if !headSent { return head != nil }
        return position < base + chunks.count || isComplete
    }

    /// The next update for cursor `id`, or `nil` when it must wait; advances the cursor. Returns
    /// the bytes freed by trimming too.
    mutating func next(for id: Int, headSent: Bool) -> (update: Update?, freed: Int) {
        guard let position = cursors[id] else { return (.failed(CancellationError()), 0) }
        if !headSent {
            if let head { return (.head(head), 0) }
            if let failure { return (.failed(failure), 0) }
            if cancelled { return (.failed(CancellationError()), 0) }
            return (nil, 0)
        }
        let end = base + chunks.count
        if position < end {
            let available = Array(chunks[(position - base)...])
            cursors[id] = end
            return (.chunks(available), trim())
        }
        if let failure { return (.failed(failure), 0) }
        if isComplete { return (.finished, 0) }
        if cancelled { return (.failed(CancellationError()), 0) }
        return (nil, 0)
    }
}
