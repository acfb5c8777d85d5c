import Testing

@testable import SchemeKit

/// The pool's bookkeeping, driven event by event without threads or sessions.
struct SessionPoolStateMachineTests {
    final class Holder {}

    typealias Machine = SessionPoolStateMachine

    /// A machine with `warm` sessions made and idle.
    func warmed(_ configuration: SessionPoolConfiguration) -> Machine {
        var machine = Machine(configuration: configuration)
        for case .create(let id) in machine.prewarm() {
            #expect(machine.created(id, success: true).isEmpty)
        }
        return machine
    }

    @Test func prewarmMakesTheWarmCountAndNoMore() {
        var machine = Machine(configuration: .init(warmCount: 2, maximumCount: 4))
        #expect(machine.prewarm() == [.create(1), .create(2)])
        #expect(machine.prewarm() == [])
        _ = machine.created(1, success: true)
        _ = machine.created(2, success: true)
        #expect(machine.snapshot.idle == 2)
        #expect(machine.snapshot.created == 2)
    }

    @Test func anIdleSessionIsAHitAfterItsHealthCheck() {
        var machine = warmed(.init(warmCount: 1, maximumCount: 2))
        let holder = Holder()
        #expect(machine.acquire(for: holder) == .check(1))
        let (take, actions) = machine.checked(1, healthy: true)
        #expect(take)
        #expect(actions == [.create(2)], "the warm set is refilled in the background")
        #expect(machine.snapshot.hits == 1)
        #expect(machine.snapshot.inUse == 1)
    }

    @Test func anUnhealthyIdleSessionIsDiscardedAndReplaced() {
        var machine = warmed(.init(warmCount: 1, maximumCount: 2))
        let holder = Holder()
        #expect(machine.acquire(for: holder) == .check(1))
        let (take, actions) = machine.checked(1, healthy: false)
        #expect(!take)
        #expect(actions == [.tearDown(1), .create(2)])
        #expect(machine.snapshot.discarded == 1)
        #expect(machine.snapshot.hits == 0)
    }

    @Test func withNothingIdleTheCallerMakesOneAndItIsAMiss() {
        var machine = Machine(configuration: .init(warmCount: 0, maximumCount: 1))
        let holder = Holder()
        #expect(machine.acquire(for: holder) == .create(1))
        #expect(machine.created(1, success: true) == [])
        #expect(machine.phase(of: 1) == .inUse)
        #expect(machine.snapshot.misses == 1)
        #expect(machine.snapshot.created == 1)
    }

    @Test(arguments: [
        (SessionPoolConfiguration.ExhaustionPolicy.fail, Machine.AcquireDecision.fail(.exhausted)),
        (.wait(timeout: .seconds(1)), .wait(1)),
    ])
    func atTheMaximumThePolicyDecides(
        policy: SessionPoolConfiguration.ExhaustionPolicy, expected: Machine.AcquireDecision
    ) {
        var machine = Machine(configuration: .init(warmCount: 0, maximumCount: 1, exhaustion: policy))
        let first = Holder()
        let second = Holder()
        #expect(machine.acquire(for: first) == .create(1))
        _ = machine.created(1, success: true)
        #expect(machine.acquire(for: second) == expected)
    }

    @Test func aWaiterGetsTheRecycledSession() {
        var machine = Machine(configuration: .init(warmCount: 0, maximumCount: 1))
        let first = Holder()
        let second = Holder()
        _ = machine.acquire(for: first)
        _ = machine.created(1, success: true)
        #expect(machine.acquire(for: second) == .wait(1))
        #expect(machine.snapshot.waiting == 1)
        #expect(machine.release(1) == [.reset(1)])
        #expect(machine.resetFinished(1, success: true) == [.deliver(1, to: 1)])
        #expect(machine.phase(of: 1) == .inUse)
        #expect(machine.snapshot.recycled == 1)
        #expect(machine.snapshot.waiting == 0)
    }

    @Test func aReleasedHolderIsFoundBySweep() {
        var machine = Machine(configuration: .init(warmCount: 0, maximumCount: 2))
        var holder: Holder? = Holder()
        let kept = Holder()
        _ = machine.acquire(for: holder!)
        _ = machine.created(1, success: true)
        _ = machine.acquire(for: kept)
        _ = machine.created(2, success: true)
        #expect(machine.sweep() == [])
        holder = nil
        #expect(machine.sweep() == [.reset(1)])
        #expect(machine.resetFinished(1, success: true) == [])
        #expect(machine.snapshot.reclaimed == 1)
        #expect(machine.snapshot.idle == 1)
        #expect(machine.snapshot.inUse == 1)
    }

    @Test func aReturnedSessionIsHandedOutBeforeAFresherOneThatFinishedLater() {
        // The race a loaded machine hit: the warm set's refill (2) is still being made when the
        // holder of 1 goes away; 1 is reset and idle first, then 2 lands.
        var machine = warmed(.init(warmCount: 1, maximumCount: 2))
        var holder: Holder? = Holder()
        #expect(machine.acquire(for: holder!) == .check(1))
        #expect(machine.checked(1, healthy: true).actions == [.create(2)])
        holder = nil
        #expect(machine.sweep() == [.reset(1)])
        #expect(machine.resetFinished(1, success: true) == [])
        #expect(machine.created(2, success: true) == [])
        #expect(machine.snapshot.idle == 2)
        let next = Holder()
        #expect(machine.acquire(for: next) == .check(1), "the view that served a holder comes back first")
        _ = machine.checked(1, healthy: true)
        #expect(machine.acquire(for: Holder()) == .check(2), "then the fresh one")
    }

    @Test func aFailedResetIsDiscardedAndReplaced() {
        var machine = Machine(configuration: .init(warmCount: 1, maximumCount: 2))
        let holder = Holder()
        _ = machine.prewarm()
        _ = machine.created(1, success: true)
        _ = machine.acquire(for: holder)
        #expect(machine.checked(1, healthy: true).actions == [.create(2)])
        _ = machine.created(2, success: true)
        #expect(machine.release(1) == [.reset(1)])
        #expect(machine.resetFinished(1, success: false) == [.tearDown(1)], "one warm session is idle already")
        #expect(machine.snapshot.discarded == 1)
        #expect(machine.snapshot.idle == 1)
    }

    @Test func aSessionServesAtMostMaximumReusesHolders() {
        var machine = Machine(configuration: .init(warmCount: 0, maximumCount: 1, maximumReuses: 2))
        let holder = Holder()
        #expect(machine.acquire(for: holder) == .create(1))
        _ = machine.created(1, success: true)
        #expect(machine.release(1) == [.reset(1)])
        _ = machine.resetFinished(1, success: true)
        #expect(machine.acquire(for: holder) == .check(1))
        _ = machine.checked(1, healthy: true)
        #expect(machine.release(1) == [.tearDown(1)], "the second holder was its last")
        #expect(machine.snapshot.retired == 1)
        #expect(machine.acquire(for: holder) == .create(2))
    }

    @Test func drainDropsIdleSessionsOnly() {
        var machine = warmed(.init(warmCount: 3, maximumCount: 4))
        let holder = Holder()
        _ = machine.acquire(for: holder)
        _ = machine.checked(3, healthy: true)
        #expect(machine.drain() == [.tearDown(1), .tearDown(2)])
        #expect(machine.snapshot.drained == 2)
        #expect(machine.snapshot.idle == 0)
        #expect(machine.snapshot.inUse == 1)
    }

    @Test func aTimedOutWaiterIsRemovedOnce() {
        var machine = Machine(configuration: .init(warmCount: 0, maximumCount: 1))
        let holder = Holder()
        _ = machine.acquire(for: holder)
        _ = machine.created(1, success: true)
        #expect(machine.acquire(for: holder) == .wait(1))
        let first = machine.abandon(1)
        let second = machine.abandon(1)
        #expect(first)
        #expect(!second)
        _ = machine.release(1)
        #expect(machine.resetFinished(1, success: true) == [], "nobody waits any more")
    }

    @Test func shutDownFailsWaitersAndTearsDownEverything() {
        var machine = Machine(configuration: .init(warmCount: 0, maximumCount: 1))
        let holder = Holder()
        _ = machine.acquire(for: holder)
        _ = machine.created(1, success: true)
        _ = machine.acquire(for: holder)
        #expect(machine.shutDown() == [.failWaiter(1, .shutDown)])
        #expect(machine.release(1) == [.tearDown(1)])
        #expect(machine.acquire(for: holder) == .fail(.shutDown))
    }

    @Test func aFailedFactoryFreesItsSlot() {
        var machine = Machine(configuration: .init(warmCount: 0, maximumCount: 1, exhaustion: .fail))
        let holder = Holder()
        #expect(machine.acquire(for: holder) == .create(1))
        #expect(machine.created(1, success: false) == [])
        #expect(machine.snapshot.discarded == 1)
        #expect(machine.acquire(for: holder) == .create(2))
    }
}
