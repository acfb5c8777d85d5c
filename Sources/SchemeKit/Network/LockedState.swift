import Foundation

/// A value behind an `NSLock`: the shared state of the network and preload types.
///
/// The same shape as `Synchronization.Mutex.withLock`, but built on a pthread mutex, which the
/// thread sanitizer understands: under contention `Mutex` on Linux waits in a futex the sanitizer
/// cannot see, and it then reports races on state that is in fact protected.
///
/// `@unchecked Sendable` because `value` is only touched while `lock` is held.
final class LockedState<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value. `body` must not call back into this lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
