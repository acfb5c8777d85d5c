import Foundation
import Synchronization

/// One shared upstream fetch: a ``PreloadBuffer`` behind a lock, the waiting cursors, and the
/// Swift task reading the upstream.
final class PreloadFetch: Sendable {
    private struct Inner {
        var buffer: PreloadBuffer
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var upstream: Task<Void, Never>?
        var firstByteAt: ContinuousClock.Instant?
        /// The upstream reader, suspended while the slowest cursor is a window behind.
        var upstreamWaiter: CheckedContinuation<Void, Never>?
    }

    let key: PreloadKey
    let logicalURL: URL
    /// When the fetch started, on the preloader's (injectable) clock: for expiry.
    let createdAt: ContinuousClock.Instant
    /// When the fetch started, on the real clock: for timings.
    let startedAt = ContinuousClock.now
    /// Insertion order, for "oldest first" eviction.
    let sequence: Int
    /// Started by `preload(_:)` rather than by an engine request.
    let startedByPreload: Bool
    private let memory: PreloadMemory
    private let inner: Locked<Inner>

    init(
        key: PreloadKey,
        logicalURL: URL,
        createdAt: ContinuousClock.Instant,
        sequence: Int,
        preload: Bool,
        memory: PreloadMemory,
        bufferLimit: Int = .max
    ) {
        self.key = key
        self.logicalURL = logicalURL
        self.createdAt = createdAt
        self.sequence = sequence
        self.startedByPreload = preload
        self.memory = memory
        self.inner = Locked(Inner(buffer: PreloadBuffer(preloadHold: preload, highWatermark: bufferLimit)))
    }

    deinit {
        let remaining = inner.withLock { $0.buffer.bufferedBytes }
        if remaining > 0 { memory.bytes.subtract(remaining, ordering: .relaxed) }
    }

    // MARK: Upstream side

    func start(_ task: Task<Void, Never>) {
        let cancelNow = inner.withLock { inner -> Bool in
            inner.upstream = task
            return inner.buffer.cancelled
        }
        if cancelNow { task.cancel() }
    }

    func receive(head: SchemeResponse) {
        mutate { $0.buffer.receive(head: head) }
    }

    func receive(_ chunk: Data) {
        mutate { inner in
            let grown = inner.buffer.receive(chunk)
            if grown > 0 { memory.bytes.add(grown, ordering: .relaxed) }
            if grown < 0 { memory.bytes.subtract(-grown, ordering: .relaxed) }
        }
    }

    /// Suspends the upstream reader while the slowest cursor (or an unclaimed preload's whole
    /// buffer) is ``PreloadBuffer/highWatermark`` bytes behind, until it has caught up to the low
    /// watermark, the fetch ended, or the reading task was cancelled.
    func waitForRoom() async {
        guard inner.withLock({ $0.buffer.upstreamMustWait }) else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = inner.withLock { inner -> Bool in
                    if Task.isCancelled || inner.buffer.upstreamMayResume { return true }
                    inner.upstreamWaiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = inner.withLock { inner -> CheckedContinuation<Void, Never>? in
                defer { inner.upstreamWaiter = nil }
                return inner.upstreamWaiter
            }
            waiter?.resume()
        }
    }

    /// The waiting upstream reader, taken when it may continue.
    private static func readyUpstream(_ inner: inout Inner) -> CheckedContinuation<Void, Never>? {
        guard inner.upstreamWaiter != nil, inner.buffer.upstreamMayResume else { return nil }
        defer { inner.upstreamWaiter = nil }
        return inner.upstreamWaiter
    }

    func complete() {
        mutate { $0.buffer.complete() }
    }

    func fail(_ error: any Error) {
        mutate { $0.buffer.fail(error) }
    }

    /// Applies `change` and wakes every waiting cursor.
    private func mutate(_ change: (inout Inner) -> Void) {
        let waiters = inner.withLock { inner in
            change(&inner)
            defer { inner.waiters = [:] }
            return Array(inner.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    // MARK: Holders

    var isUnclaimedPreload: Bool { inner.withLock { $0.buffer.preloadHold } }
    var isEnded: Bool { inner.withLock { $0.buffer.isEnded } }
    var isComplete: Bool { inner.withLock { $0.buffer.isComplete } }
    var hasFailed: Bool { inner.withLock { $0.buffer.failure != nil || $0.buffer.cancelled } }
    var receivedBytes: Int { inner.withLock { $0.buffer.receivedBytes } }
    /// Whether the upstream reader is suspended in ``waitForRoom()`` right now.
    var upstreamIsWaiting: Bool { inner.withLock { $0.upstreamWaiter != nil } }

    func attach() -> (id: Int, claimedPreload: Bool)? {
        inner.withLock { $0.buffer.attach() }
    }

    /// Detaches a cursor; returns whether this cancelled the upstream.
    @discardableResult
    func detach(_ id: Int) -> Bool {
        release { $0.detach(id) }
    }

    /// Drops the preload hold; returns whether this cancelled the upstream.
    @discardableResult
    func releasePreload() -> Bool {
        release { $0.releasePreload() }
    }

    /// Closes the fetch to new joiners (it left the preloader's table).
    func close() {
        let freed = inner.withLock { $0.buffer.close() }
        if freed > 0 { memory.bytes.subtract(freed, ordering: .relaxed) }
    }

    private func release(
        _ change: (inout PreloadBuffer) -> (freed: Int, action: PreloadBuffer.ReleaseAction)
    ) -> Bool {
        let (freed, cancel, upstream, waiters) = inner.withLock {
            inner -> (Int, Bool, Task<Void, Never>?, [CheckedContinuation<Void, Never>]) in
            let (freed, action) = change(&inner.buffer)
            // The slowest reader may have left: the upstream may continue.
            let ready = Self.readyUpstream(&inner).map { [$0] } ?? []
            guard action == .cancelUpstream else { return (freed, false, nil, ready) }
            defer { inner.waiters = [:] }
            return (freed, true, inner.upstream, Array(inner.waiters.values) + ready)
        }
        if freed > 0 { memory.bytes.subtract(freed, ordering: .relaxed) }
        for waiter in waiters { waiter.resume() }
        // When the upstream task is not set yet, `start(_:)` sees the cancellation and cancels it.
        upstream?.cancel()
        return cancel
    }

    // MARK: Cursor side

    /// The next update for cursor `id`; suspends until there is one. `nil` when the calling Swift
    /// task was cancelled.
    func update(for id: Int, headSent: Bool) async -> PreloadBuffer.Update? {
        while true {
            let (update, freed, upstream) = inner.withLock {
                inner -> (PreloadBuffer.Update?, Int, CheckedContinuation<Void, Never>?) in
                let (update, freed) = inner.buffer.next(for: id, headSent: headSent)
                return (update, freed, Self.readyUpstream(&inner))
            }
            if freed > 0 { memory.bytes.subtract(freed, ordering: .relaxed) }
            upstream?.resume()
            if let update { return update }
            if Task.isCancelled { return nil }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = inner.withLock { inner -> Bool in
                        if Task.isCancelled { return true }
                        if inner.buffer.hasUpdate(for: id, headSent: headSent) { return true }
                        inner.waiters[id] = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                let waiter = inner.withLock { $0.waiters.removeValue(forKey: id) }
                waiter?.resume()
            }
        }
    }
}

/// The bytes buffered by every live fetch of one ``Preloader``.
final class PreloadMemory: Sendable {
    let bytes = Atomic<Int>(0)
}
