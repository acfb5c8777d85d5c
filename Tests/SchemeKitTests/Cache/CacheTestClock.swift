import Synchronization

/// A clock that moves only when a test says so: expiry is tested without sleeping.
final class CacheTestClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current = Locked(Instant(offset: .zero))

    var now: Instant { current.withLock { $0 } }
    var minimumResolution: Duration { .nanoseconds(1) }

    /// Moves time forward.
    func advance(by duration: Duration) {
        current.withLock { $0.offset += duration }
    }

    /// Not used by the cache; returns at once when the deadline has passed, otherwise throws so a
    /// test can never hang on it.
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        if deadline <= now { return }
        throw CancellationError()
    }
}
