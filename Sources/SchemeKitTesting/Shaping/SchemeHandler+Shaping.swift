public import SchemeKit

extension SchemeHandler {
    /// This handler behind a simulated network timed on `clock`; see ``ShapedHandler``.
    ///
    /// ```swift
    /// let clock = ImmediateClock()
    /// let slow = files.shaped(NetworkConditions(bytesPerSecond: 256_000), clock: clock)
    /// ```
    public func shaped<C: Clock<Duration>>(_ conditions: NetworkConditions, clock: C) -> ShapedHandler<Self, C> {
        ShapedHandler(self, conditions: conditions, clock: clock)
    }

    /// This handler behind a simulated network timed on the `ContinuousClock`; see ``ShapedHandler``.
    public func shaped(_ conditions: NetworkConditions) -> ShapedHandler<Self, ContinuousClock> {
        ShapedHandler(self, conditions: conditions)
    }
}
