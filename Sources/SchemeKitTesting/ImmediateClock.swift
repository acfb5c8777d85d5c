import SchemeKit
import Synchronization

/// A clock whose sleeps return at once, advancing its time and recording each requested sleep.
///
/// Inject it into ``ShapedHandler`` (or your own clock-generic code) to test pacing without
/// waiting and without timing assertions:
///
/// ```swift
/// let clock = ImmediateClock()
/// let slow = StaticHandler(Data(count: 3000))
///     .shaped(NetworkConditions(bytesPerSecond: 1000, chunkSize: 1000), clock: clock)
/// _ = try await ScriptedEngine(serving: slow).run("app://localhost/")
/// #expect(clock.sleeps == [.seconds(1), .seconds(1), .seconds(1)])
/// ```
///
/// A sleep still throws `CancellationError` when the calling task is cancelled.
public final class ImmediateClock: Clock, Sendable {
    /// A point on an ``ImmediateClock``: the time slept since the clock was created.
    public struct Instant: InstantProtocol, Sendable {
        /// The time since the clock's origin.
        public var offset: Duration

        /// Creates an instant `offset` after the clock's origin.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Orders instants by offset.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    struct State {
        var now = Instant(offset: .zero)
        var sleeps: [Duration] = []
    }

    private let state = Locked(State())

    /// Creates a clock at offset zero.
    public init() {}

    /// The current instant: the sum of every sleep so far.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: the clock has no resolution limit.
    public var minimumResolution: Duration { .zero }

    /// Every sleep requested, in order.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// The sum of every sleep requested.
    public var totalSlept: Duration { state.withLock { $0.now.offset } }

    /// Records the sleep and advances the clock to `deadline`; returns at once.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            let duration = max(.zero, state.now.duration(to: deadline))
            state.sleeps.append(duration)
            state.now = state.now.advanced(by: duration)
        }
        await Task.yield()
        try Task.checkCancellation()
    }
}
