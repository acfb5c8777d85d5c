import Foundation
import Testing

@testable import SchemeKit

/// The one condition primitive: a waiter wakes on the change it waits for, a timeout gives `nil`.
struct ConditionLockTests {
    @Test func aWaiterWakesWhenAnotherThreadChangesTheValue() {
        let lock = ConditionLock(0)
        Thread {
            Thread.sleep(forTimeInterval: 0.05)
            lock.withLock { $0 = 42 }
        }.start()
        let seen = lock.wait(timeout: .seconds(10)) { $0 == 0 ? nil : $0 }
        #expect(seen == 42)
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
