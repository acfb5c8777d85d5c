#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Android)
    import Android
#endif

/// A value behind SchemeKit's lock, with a condition a thread can wait on: the one primitive for
/// a thread that must block until another changes some state (a thread's start and end, a
/// bounded buffer between a thread and a task). Async code never waits on it.
///
/// Built on the same pthread mutex as ``Lock`` (which the thread sanitizer sees) and a pthread
/// condition variable. Every ``withLock(_:)`` wakes every waiter when it returns, so a waiter
/// re-checks its predicate after each change; that costs a `pthread_cond_broadcast` per change,
/// which is nothing when nobody waits.
///
/// `@unchecked Sendable` because the value is only reached with the mutex held.
package final class ConditionLock<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var value: Value

    /// Puts `value` behind a new lock.
    package init(_ value: Value) {
        self.value = value
        Lock.initialise(mutex, recursive: false)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if !canImport(Darwin)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value, then wakes every waiter.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// Blocks the calling thread until `body` returns a value (it runs with the lock held, first at
    /// once and then after every change), or until `timeout` passes.
    ///
    /// - Parameters:
    ///   - timeout: The most to wait; `nil` (the default) waits as long as it takes.
    ///   - body: Returns `nil` to keep waiting; may change the value (waiters are woken when it does).
    /// - Returns: What `body` returned, or `nil` when the time ran out first.
    package func wait<Result>(timeout: Duration? = nil, until body: (inout Value) -> Result?) -> Result? {
        let deadline = timeout.map { Self.deadline(after: $0) }
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        while true {
            if let result = body(&value) { return result }
            if var deadline {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { return body(&value) }
            } else {
                pthread_cond_wait(condition, mutex)
            }
        }
    }

    /// The absolute time `duration` from now, on the condition's clock.
    private static func deadline(after duration: Duration) -> timespec {
        var now = timespec()
        #if canImport(Darwin)
            clock_gettime(CLOCK_REALTIME, &now)
        #else
            clock_gettime(CLOCK_MONOTONIC, &now)
        #endif
        let (seconds, attoseconds) = duration.components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var total = Int(now.tv_sec) + Int(seconds)
        total += nanoseconds / 1_000_000_000
        nanoseconds %= 1_000_000_000
        return timespec(tv_sec: .init(total), tv_nsec: .init(nanoseconds))
    }
}
