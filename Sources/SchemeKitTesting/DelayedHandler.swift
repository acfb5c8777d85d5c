public import SchemeKit

/// Waits before letting the wrapped handler answer: a slow disk, a slow server before its
/// first byte.
///
/// The wait uses an injectable clock, so tests can use ``ImmediateClock`` and never sleep. A stop
/// during the wait cancels it: the wrapped handler never runs.
///
/// A thin use of ``ShapedHandler`` with a ``NetworkLatency/fixed(_:)`` latency; for a latency drawn
/// from a distribution, or a clock the compiler knows statically, use `delayed(by:clock:)` with a
/// ``NetworkLatency``, or `SchemeHandler.shaped(_:clock:)`.
///
/// ```swift
/// let slow = DelayedHandler(StaticHandler("late"), delay: .milliseconds(200))
/// let result = try await ScriptedEngine(serving: slow).run("app://localhost/", stoppingAt: .beforeHead)
/// ```
public struct DelayedHandler<Wrapped: SchemeHandler>: SchemeForwardingHandler {
    /// The handler that answers after the delay.
    public let wrapped: Wrapped
    /// How long to wait before the wrapped handler runs.
    package let delay: Duration
    /// The clock that measures the delay.
    package let clock: any Clock<Duration>

    /// Creates a delayed handler.
    ///
    /// - Parameters:
    ///   - wrapped: The handler that answers after the delay.
    ///   - delay: The wait before the head.
    ///   - clock: The clock to sleep on. Default: `ContinuousClock`.
    public init(_ wrapped: Wrapped, delay: Duration, clock: any Clock<Duration> = ContinuousClock()) {
        self.wrapped = wrapped
        self.delay = delay
        self.clock = clock
    }

    /// Sleeps for `delay`, then gives the wrapped handler's answer (a writing answer: the wait
    /// happens in the task, where a stop interrupts it with `CancellationError`).
    public func answer(to request: SchemeRequest) -> SchemeAnswer {
        Self.shaped(wrapped, delay: delay, clock: clock).answer(to: request)
    }

    /// Opens the clock's existential, so the shaped handler is specialised for its concrete type.
    private static func shaped<C: Clock<Duration>>(_ wrapped: Wrapped, delay: Duration, clock: C)
        -> any SchemeHandler
    {
        ShapedHandler(wrapped, conditions: NetworkConditions(latency: .fixed(delay)), clock: clock)
    }
}
