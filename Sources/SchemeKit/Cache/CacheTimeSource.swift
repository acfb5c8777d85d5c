import Foundation

/// Turns a `Clock`'s instants into wall-clock dates, so expiry can be stored on disk (a `Date`
/// survives restarts, a clock instant does not) while tests drive time with a manual clock.
///
/// The mapping is fixed when the source is created: `now()` is the creation date plus the time
/// the clock advanced since. With `ContinuousClock` that is the wall clock, without its jumps.
struct CacheTimeSource<C: Clock>: Sendable where C.Duration == Duration {
    let clock: C
    let startInstant: C.Instant
    let startDate: Date

    init(clock: C, startDate: Date = Date()) {
        self.clock = clock
        self.startInstant = clock.now
        self.startDate = startDate
    }

    /// The current wall-clock date according to the clock.
    func now() -> Date {
        startDate.addingTimeInterval(startInstant.duration(to: clock.now).timeInterval)
    }
}
