/// The network a ``ShapedHandler`` simulates in front of any handler: latency before the
/// response, bandwidth for its body, and a failure at a chosen byte.
///
/// Every property is off by default, so a `NetworkConditions()` changes nothing.
///
/// ```swift
/// let conditions = NetworkConditions(
///     latency: .uniform(.milliseconds(50)...(.milliseconds(150)), seed: 42),
///     bytesPerSecond: 256_000,
///     failure: .atByte(1_000_000))
/// let shaped = LocalFileHandler(root: root).shaped(conditions, clock: ImmediateClock())
/// ```
public struct NetworkConditions: Sendable {
    /// The wait before the wrapped handler runs (the time to first byte). Default: ``NetworkLatency/none``.
    public var latency: NetworkLatency
    /// The bandwidth for body bytes, at least 1; `nil` for no limit. Default: `nil`.
    public var bytesPerSecond: Int?
    /// The most bytes written at once when ``bytesPerSecond`` is set. Default (`nil`): a tenth of
    /// a second's worth, at most 64 KiB, at least 1 byte.
    public var chunkSize: Int?
    /// Where the connection breaks, or `nil` for never. Default: `nil`.
    public var failure: NetworkFailure?

    /// Creates conditions; every parameter defaults to "no effect".
    ///
    /// - Parameters:
    ///   - latency: The wait before the response. Default: none.
    ///   - bytesPerSecond: The bandwidth (clamped to at least 1). Default: unlimited.
    ///   - chunkSize: The largest write when throttled (clamped to at least 1). Default: a tenth
    ///     of a second's worth, at most 64 KiB.
    ///   - failure: A failure after some body bytes. Default: none.
    public init(
        latency: NetworkLatency = .none,
        bytesPerSecond: Int? = nil,
        chunkSize: Int? = nil,
        failure: NetworkFailure? = nil
    ) {
        self.latency = latency
        self.bytesPerSecond = bytesPerSecond.map { max(1, $0) }
        self.chunkSize = chunkSize.map { max(1, $0) }
        self.failure = failure
    }

    /// The chunk size in effect when throttled.
    var effectiveChunkSize: Int {
        if let chunkSize { return max(1, chunkSize) }
        return max(1, min((bytesPerSecond ?? 0) / 10, 64 << 10))
    }

    /// How long `count` bytes take at ``bytesPerSecond``, rounded down to the nanosecond; `.zero`
    /// without a bandwidth.
    func transmissionTime(of count: Int) -> Duration {
        guard let rate = bytesPerSecond, count > 0 else { return .zero }
        let whole = Int64(count / rate)
        let rest = Int64(count % rate)  // < rate, so rest * 10^9 / rate needs a wide multiply only
        let (high, low) = rest.multipliedFullWidth(by: 1_000_000_000)
        let fraction = Int64(rate).dividingFullWidth((high, low)).quotient
        return .seconds(whole) + .nanoseconds(fraction)
    }
}
