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

    /// This handler, starting after a delay drawn from `latency` for each request, on `clock`.
    ///
    /// ```swift
    /// let jittery = files.delayed(by: .uniform(.milliseconds(20)...(.milliseconds(200)), seed: 3), clock: clock)
    /// ```
    public func delayed<C: Clock<Duration>>(by latency: NetworkLatency, clock: C) -> ShapedHandler<Self, C> {
        ShapedHandler(self, conditions: NetworkConditions(latency: latency), clock: clock)
    }

    /// This handler, starting after a delay drawn from `latency` for each request, on the
    /// `ContinuousClock`.
    public func delayed(by latency: NetworkLatency) -> ShapedHandler<Self, ContinuousClock> {
        ShapedHandler(self, conditions: NetworkConditions(latency: latency))
    }

    /// This handler, its task failing once `byte` body bytes reached the engine; see
    /// ``NetworkFailure``.
    ///
    /// - Parameters:
    ///   - byte: The body bytes delivered before the failure.
    ///   - error: The failure. Default: an ``InjectedError`` ("connection lost after N bytes").
    public func failing(atByte byte: Int, error: (any Error)? = nil) -> ShapedHandler<Self, ContinuousClock> {
        ShapedHandler(self, conditions: NetworkConditions(failure: .atByte(byte, error: error)))
    }
}
