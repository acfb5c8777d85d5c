public import SchemeKit

extension SchemeHandler {
    /// This handler, answering only requests `matcher` matches (others pass).
    ///
    /// ```swift
    /// let pngs = StaticHandler(png, mimeType: "image/png").matching(.pathExtension("png"))
    /// ```
    public func matching(_ matcher: RequestMatcher) -> StubHandler<Self> {
        StubHandler(matching: matcher, self)
    }

    /// This handler, starting after `delay` on `clock`; see ``DelayedHandler`` (for a latency
    /// drawn from a distribution, pass a ``NetworkLatency`` instead of a `Duration`).
    ///
    /// - Parameters:
    ///   - delay: The wait before the handler runs.
    ///   - clock: The clock to sleep on. Default: `ContinuousClock`.
    public func delayed(by delay: Duration, clock: any Clock<Duration> = ContinuousClock()) -> DelayedHandler<Self> {
        DelayedHandler(self, delay: delay, clock: clock)
    }

    /// This handler, with its body paced to `bytesPerSecond`; see ``ThrottledHandler`` (and
    /// ``shaped(_:clock:)`` for latency, bandwidth and failure together).
    ///
    /// - Parameters:
    ///   - bytesPerSecond: The bandwidth.
    ///   - chunkSize: The size of each write. Default: a tenth of a second's worth.
    ///   - clock: The clock to sleep on. Default: `ContinuousClock`.
    public func throttled(
        bytesPerSecond: Int,
        chunkSize: Int? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) -> ThrottledHandler<Self> {
        ThrottledHandler(self, bytesPerSecond: bytesPerSecond, chunkSize: chunkSize, clock: clock)
    }

    /// This handler, with `fault` injected; see ``FaultInjectingHandler``.
    public func injecting(_ fault: HandlerFault) -> FaultInjectingHandler<Self> {
        FaultInjectingHandler(self, fault: fault)
    }
}
