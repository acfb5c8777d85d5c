/// A snapshot of a ``SessionPool``'s counters.
///
/// Every session ends in exactly one of ``discarded``, ``retired``, ``drained`` or a shutdown;
/// every successful acquire counts once in ``hits`` (an idle session was ready) or ``misses``
/// (the caller waited for a new or returning session).
public struct SessionPoolStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Acquires served at once by an idle session.
    public var hits = 0
    /// Acquires that had to wait for a session to be made or to come back.
    public var misses = 0
    /// Sessions made by the factory.
    public var created = 0
    /// Sessions reset and returned to the idle set.
    public var recycled = 0
    /// Sessions thrown away because their reset or health check failed, or the factory threw.
    public var discarded = 0
    /// Sessions torn down after serving ``SessionPoolConfiguration/maximumReuses`` holders.
    public var retired = 0
    /// Idle sessions torn down by ``SessionPool/drain()``.
    public var drained = 0
    /// Sessions taken back because their holder was released without ``SessionPool/recycle(_:)``.
    public var reclaimed = 0
    /// Sessions idle now.
    public var idle = 0
    /// Sessions held now.
    public var inUse = 0
    /// Callers waiting in ``SessionPool/acquire(for:)`` for a session to come back, now.
    public var waiting = 0

    /// One line with every counter.
    public var description: String {
        "hits=\(hits) misses=\(misses) created=\(created) recycled=\(recycled) discarded=\(discarded) "
            + "retired=\(retired) drained=\(drained) reclaimed=\(reclaimed) idle=\(idle) inUse=\(inUse) waiting=\(waiting)"
    }
}
