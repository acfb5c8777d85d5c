import Foundation
import LoopbackTestSupport
import Testing

@testable import SchemeKit

/// The one condition primitive: a waiter wakes on the change it waits for, a timeout gives `nil`.
struct ConditionLockTests {
    @Test func aWaiterWakesWhenAnotherThreadChangesTheValue() {
        /// The value, and how often the waiter found it unchanged (and went back to sleep).
        struct Value {
            var number = 0
            var misses = 0
        }
        let lock = ConditionLock(Value())
        Thread {
            // Changes the value only once the waiter has looked and gone to sleep on it, so the
            // wake-up is what this test sees, not a value that was there before the wait began.
            _ = eventuallyBlocking { lock.withLock { $0.misses > 0 } }
            lock.withLock { $0.number = 42 }
        }.start()
        let seen = lock.wait(timeout: .seconds(30)) { value -> Int? in
            guard value.number != 0 else {
                value.misses += 1
                return nil
            }
            return value.number
        }
        #expect(seen == 42)
        #expect(lock.withLock { $0.misses } >= 1, "the waiter slept before the change")
    }

    @Test func aWaitThatTimesOutGivesNil() {
        let lock = ConditionLock(false)
        let started = ContinuousClock.now
        let seen = lock.wait(timeout: .milliseconds(100)) { $0 ? true : nil }
        #expect(seen == nil)
        #expect(ContinuousClock.now - started >= .milliseconds(90))
    }

    @Test func aWaitThatHoldsAtOnceDoesNotBlock() {
        let lock = ConditionLock([1, 2, 3])
        let taken = lock.wait { values -> [Int]? in
            defer { values = [] }
            return values
        }
        #expect(taken == [1, 2, 3])
        #expect(lock.withLock { $0 } == [])
    }
}
