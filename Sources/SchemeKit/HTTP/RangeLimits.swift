/// Limits that protect a server from range amplification (RFC 9110 §14.2 lets a server ignore or
/// refuse ranges that are too many or overlap): past them a `Range` request gets the whole
/// representation (200), as nginx and Apache answer.
public struct RangeLimits: Sendable, Hashable {
    /// The most ranges honoured in one request; more → the whole representation. Default: 16.
    public var maxRanges: Int
    /// Whether overlapping ranges are honoured. Default: `false` (overlap → whole representation).
    public var allowsOverlappingRanges: Bool

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maxRanges: The most ranges honoured. Default: 16.
    ///   - allowsOverlappingRanges: Whether overlapping ranges are honoured. Default: `false`.
    public init(maxRanges: Int = 16, allowsOverlappingRanges: Bool = false) {
        self.maxRanges = maxRanges
        self.allowsOverlappingRanges = allowsOverlappingRanges
    }
}
