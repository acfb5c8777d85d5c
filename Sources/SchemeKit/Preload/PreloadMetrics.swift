/// Counters of a ``Preloader``.
public struct PreloadMetrics: Sendable, Hashable {
    /// Upstream fetches started (preloads and engine requests that found nothing to join).
    public var upstreamFetches: Int
    /// Calls to ``Preloader/preload(_:headerFields:)`` that started a fetch.
    public var preloadsStarted: Int
    /// Preloads an engine request attached to.
    public var preloadsClaimed: Int
    /// Engine requests that joined a fetch started by another engine request.
    public var joined: Int
    /// Unclaimed preloads dropped because they expired.
    public var expired: Int
    /// Unclaimed preloads dropped to keep buffered memory under the limit.
    public var evicted: Int
    /// Upstream fetches cancelled because no task and no preload held them any more.
    public var cancelled: Int
    /// Engine requests answered 403 because their host is not allowed (``NetworkAllowedHosts``):
    /// never fetched.
    public var refusedHosts: Int = 0
}
