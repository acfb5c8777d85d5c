public import SchemeKit

/// Limits the wrapped handler's body to a bandwidth in bytes per second: a slow network.
///
/// Every body write of the wrapped handler is split into chunks of `chunkSize` bytes; each chunk
/// is written once its transmission time (`chunk.count / bytesPerSecond`) has passed on
/// `clock`, so a body of `n` bytes takes `n / bytesPerSecond` seconds in all. Use ``ImmediateClock`` to test the
/// pacing without waiting. A stop during a sleep cancels it.
///
/// A thin use of ``ShapedHandler`` with ``NetworkConditions/bytesPerSecond`` and
/// ``NetworkConditions/chunkSize`` set (see there for how the pacing works).
///
/// ```swift
/// let clock = ImmediateClock()
/// let slow = ThrottledHandler(StaticHandler(Data(count: 10_000)), bytesPerSecond: 1_000, clock: clock)
/// _ = try await ScriptedEngine(serving: slow).run("app://localhost/big")
/// #expect(clock.totalSlept == .seconds(10))
/// ```
public struct ThrottledHandler<Wrapped: SchemeHandler>: SchemeForwardingHandler {
    /// The handler whose body is throttled.
    public let wrapped: Wrapped
    /// The bandwidth, in bytes per second (at least 1).
    package let bytesPerSecond: Int
    /// The size of each write (at least 1).
    package let chunkSize: Int
    /// The clock to sleep on.
    package let clock: any Clock<Duration>

    /// Creates a throttled handler.
    ///
    /// - Parameters:
    ///   - wrapped: The handler whose body is throttled.
    ///   - bytesPerSecond: The bandwidth (clamped to at least 1).
    ///   - chunkSize: The size of each write. Default: a tenth of a second's worth, at least 1 byte.
    ///   - clock: The clock to sleep on. Default: `ContinuousClock`.
    public init(
        _ wrapped: Wrapped,
        bytesPerSecond: Int,
        chunkSize: Int? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.wrapped = wrapped
        self.bytesPerSecond = max(1, bytesPerSecond)
        self.chunkSize = max(1, chunkSize ?? self.bytesPerSecond / 10)
        self.clock = clock
    }

    /// The wrapped handler's answer, written through a writer that paces its body.
    public func answer(to request: SchemeRequest) -> SchemeAnswer {
        Self.shaped(wrapped, conditions: conditions, clock: clock).answer(to: request)
    }

    /// The conditions this handler stands for.
    var conditions: NetworkConditions {
        NetworkConditions(bytesPerSecond: bytesPerSecond, chunkSize: chunkSize)
    }

    /// Opens the clock's existential, so the shaped handler is specialised for its concrete type.
    private static func shaped<C: Clock<Duration>>(_ wrapped: Wrapped, conditions: NetworkConditions, clock: C)
        -> any SchemeHandler
    {
        ShapedHandler(wrapped, conditions: conditions, clock: clock)
    }
}
