/// The knobs of a ``SessionPool``.
///
/// ```swift
/// let configuration = SessionPoolConfiguration(warmCount: 2, maximumCount: 4, maximumReuses: 50,
///                                              exhaustion: .wait(timeout: .seconds(5)))
/// ```
public struct SessionPoolConfiguration: Sendable, Hashable {
    /// What ``SessionPool/acquire(for:)`` does when every session is in use and no more may be made.
    public enum ExhaustionPolicy: Sendable, Hashable {
        /// Wait for a session to come back, at most `timeout`; then throw ``SessionPoolError/timedOut``.
        case wait(timeout: Duration)
        /// Throw ``SessionPoolError/exhausted`` at once.
        case fail
    }

    /// Sessions kept ready (idle, or being made) when the pool is not exhausted. Default: 1.
    ///
    /// ``SessionPool/start()`` pre-warms this many; a session discarded or retired is replaced to
    /// keep this many ready. `0` makes every session on demand.
    public var warmCount: Int
    /// The most sessions alive at once: idle, in use, being made or being reset. Default: 4.
    public var maximumCount: Int
    /// How many holders one session serves before it is torn down instead of reset. Default: 100.
    public var maximumReuses: Int
    /// What to do when the pool is exhausted. Default: wait up to 10 seconds.
    public var exhaustion: ExhaustionPolicy
    /// How often the pool looks for holders that are gone; `nil` sweeps only at ``SessionPool/acquire(for:)``
    /// and ``SessionPool/sweep()``. Default: every second.
    public var sweepInterval: Duration?

    /// Creates a configuration; values below their minimum are raised to it (`maximumCount` ≥ 1,
    /// `maximumReuses` ≥ 1, `warmCount` between 0 and `maximumCount`).
    public init(
        warmCount: Int = 1,
        maximumCount: Int = 4,
        maximumReuses: Int = 100,
        exhaustion: ExhaustionPolicy = .wait(timeout: .seconds(10)),
        sweepInterval: Duration? = .seconds(1)
    ) {
        self.maximumCount = max(1, maximumCount)
        self.warmCount = min(max(0, warmCount), self.maximumCount)
        self.maximumReuses = max(1, maximumReuses)
        self.exhaustion = exhaustion
        self.sweepInterval = sweepInterval
    }
}
