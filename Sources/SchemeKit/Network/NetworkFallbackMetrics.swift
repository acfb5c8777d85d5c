import HTTPTypes
import Synchronization

/// Counters of a ``NetworkFallbackHandler`` (or ``Preloader``): what reached the network and how
/// it ended.
public struct NetworkFallbackMetrics: Sendable, Hashable {
    /// Upstream responses whose head was passed to a task.
    public var forwarded: Int
    /// Requests answered with 502 Bad Gateway (upstream unreachable or invalid).
    public var badGateway: Int
    /// Requests answered with 504 Gateway Timeout.
    public var gatewayTimeout: Int
    /// Responses whose body broke after the head was sent: the task was failed.
    public var cutMidBody: Int
    /// Responses stored by the write-through.
    public var storedWriteThrough: Int
    /// Requests answered 403 because their host is not allowed (``NetworkAllowedHosts``): never
    /// fetched.
    public var refusedHosts: Int
}

/// The atomic storage behind ``NetworkFallbackMetrics``.
final class NetworkCounters: Sendable {
    let forwarded = Atomic<Int>(0)
    let badGateway = Atomic<Int>(0)
    let gatewayTimeout = Atomic<Int>(0)
    let cutMidBody = Atomic<Int>(0)
    let storedWriteThrough = Atomic<Int>(0)
    let refusedHosts = Atomic<Int>(0)

    var snapshot: NetworkFallbackMetrics {
        NetworkFallbackMetrics(
            forwarded: forwarded.load(ordering: .relaxed),
            badGateway: badGateway.load(ordering: .relaxed),
            gatewayTimeout: gatewayTimeout.load(ordering: .relaxed),
            cutMidBody: cutMidBody.load(ordering: .relaxed),
            storedWriteThrough: storedWriteThrough.load(ordering: .relaxed),
            refusedHosts: refusedHosts.load(ordering: .relaxed)
        )
    }

    func countGateway(_ status: HTTPResponse.Status) {
        if status == .gatewayTimeout {
            gatewayTimeout.add(1, ordering: .relaxed)
        } else {
            badGateway.add(1, ordering: .relaxed)
        }
    }
}
