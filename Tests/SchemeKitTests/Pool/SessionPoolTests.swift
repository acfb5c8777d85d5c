import Dispatch
import LoopbackTestSupport
import SchemeKit
import SchemeKitTesting
import Testing

/// The pool with fake sessions: hand-out, take-back, failures, limits and counters.
struct SessionPoolTests {
    final class Holder {}

    func makePool(
        _ configuration: SessionPoolConfiguration,
        factory: FakeSessionFactory = FakeSessionFactory(),
        executor: (any SchemeDeliveryQueue)? = nil
    ) -> SessionPool<FakeSession> {
        SessionPool(configuration: configuration, executor: executor) { factory.make() }
    }

    @Test func startPrewarmsAndAcquireIsAHit() async throws {
        let factory = FakeSessionFactory()
        let pool = makePool(.init(warmCount: 2, maximumCount: 3, sweepInterval: nil), factory: factory)
        await pool.start()
        #expect(await pool.statistics.idle == 2)
        let holder = Holder()
        let session = try await pool.acquire(for: holder)
        await pool.waitForBackgroundWork()
        let statistics = await pool.statistics
        #expect(statistics.hits == 1)
        #expect(statistics.misses == 0)
        #expect(statistics.inUse == 1)
        #expect(statistics.idle == 2, "the warm set was refilled")
        #expect(factory.sessions.count == 3)
        #expect(factory.sessions.contains { $0 === session })
    }

    @Test func aReleasedHolderGivesItsSessionBack() async throws {
        let pool = makePool(.init(warmCount: 0, maximumCount: 1, sweepInterval: nil))
        var holder: Holder? = Holder()
        let session = try await pool.acquire(for: holder!)
        session.injected = ["user script"]
        holder = nil
        await pool.sweep()
        let statistics = await pool.statistics
        #expect(statistics.reclaimed == 1)
        #expect(statistics.idle == 1)
        #expect(statistics.inUse == 0)
        #expect(session.injected.isEmpty, "it was reset before reuse")
        let next = try await pool.acquire(for: Holder())
        #expect(next === session)
    }

    @Test func thePeriodicSweepFindsReleasedHolders() async throws {
        let pool = makePool(.init(warmCount: 0, maximumCount: 1, sweepInterval: .milliseconds(20)))
        var holder: Holder? = Holder()
        _ = try await pool.acquire(for: holder!)
        holder = nil
        #expect(await eventually { await pool.statistics.idle == 1 })
        #expect(await pool.statistics.reclaimed == 1)
        await pool.shutDown()
    }

    @Test func aFailedResetIsDiscardedAndReplaced() async throws {
        let factory = FakeSessionFactory()
        let pool = makePool(.init(warmCount: 1, maximumCount: 2, sweepInterval: nil), factory: factory)
        let holder = Holder()
        let session = try await pool.acquire(for: holder)
        await pool.waitForBackgroundWork()
        session.failNextReset()
        try await pool.recycle(session)
        await pool.waitForBackgroundWork()
        let statistics = await pool.statistics
        #expect(statistics.discarded == 1)
        #expect(statistics.recycled == 0)
        #expect(session.isTornDown)
        #expect(statistics.idle == 1)
        let next = try await pool.acquire(for: holder)
        #expect(next !== session)
    }

    @Test func anUnhealthySessionIsNotHandedOut() async throws {
        let factory = FakeSessionFactory()
        let pool = makePool(.init(warmCount: 1, maximumCount: 2, sweepInterval: nil), factory: factory)
        await pool.start()
        let crashed = try #require(factory.sessions.first)
        crashed.crash()
        let session = try await pool.acquire(for: Holder())
        #expect(session !== crashed)
        #expect(crashed.isTornDown)
        #expect(await pool.statistics.discarded == 1)
    }

    @Test func atTheMaximumAWaiterGetsTheRecycledSession() async throws {
        let pool = makePool(
            .init(
                warmCount: 0, maximumCount: 1, exhaustion: .wait(timeout: TestTiming.scaled(.seconds(30))),
                sweepInterval: nil))
        let first = Holder()
        let session = try await pool.acquire(for: first)
        let waiter = Task { try await pool.acquire(for: Holder()) }
        #expect(await eventually { await pool.statistics.waiting == 1 })
        try await pool.recycle(session)
        let handed = try await waiter.value
        #expect(handed === session)
        let statistics = await pool.statistics
        #expect(statistics.recycled == 1)
        #expect(statistics.misses == 2)
        #expect(statistics.created == 1)
    }

    @Test func atTheMaximumTheFailPolicyThrows() async throws {
        let pool = makePool(.init(warmCount: 0, maximumCount: 1, exhaustion: .fail, sweepInterval: nil))
        let holder = Holder()
        _ = try await pool.acquire(for: holder)
        await #expect(throws: SessionPoolError.exhausted) { try await pool.acquire(for: holder) }
    }

    @Test func aWaiterTimesOut() async throws {
        let pool = makePool(
            .init(warmCount: 0, maximumCount: 1, exhaustion: .wait(timeout: .milliseconds(50)), sweepInterval: nil))
        let holder = Holder()
        _ = try await pool.acquire(for: holder)
        await #expect(throws: SessionPoolError.timedOut) { try await pool.acquire(for: holder) }
        #expect(await pool.statistics.waiting == 0)
    }

    @Test func aSessionIsRetiredAfterMaximumReuses() async throws {
        let factory = FakeSessionFactory()
        let pool = makePool(
            .init(warmCount: 0, maximumCount: 1, maximumReuses: 3, sweepInterval: nil), factory: factory)
        let holder = Holder()
        var seen: [Int] = []
        for _ in 0..<4 {
            let session = try await pool.acquire(for: holder)
            seen.append(session.number)
            try await pool.recycle(session)
        }
        #expect(seen == [1, 1, 1, 2])
        #expect(factory.sessions[0].isTornDown)
        #expect(factory.sessions[0].resets == 2, "no reset before retiring")
        #expect(await pool.statistics.retired == 1)
    }

    @Test func drainTearsDownIdleSessions() async throws {
        let factory = FakeSessionFactory()
        let pool = makePool(.init(warmCount: 3, maximumCount: 4, sweepInterval: nil), factory: factory)
        await pool.start()
        let held = try await pool.acquire(for: Holder())
        await pool.waitForBackgroundWork()
        await pool.drain()
        let statistics = await pool.statistics
        #expect(statistics.drained == 3, "two warm ones and the one refilling the warm set")
        #expect(statistics.idle == 0)
        #expect(factory.sessions.filter { $0 !== held }.allSatisfy { $0.isTornDown })
        #expect(!held.isTornDown)
    }

    @Test func recyclingASessionTwiceIsRejected() async throws {
        let pool = makePool(.init(warmCount: 0, maximumCount: 1, sweepInterval: nil))
        let session = try await pool.acquire(for: Holder())
        try await pool.recycle(session)
        await #expect(throws: SessionPoolError.foreignSession) { try await pool.recycle(session) }
    }

    @Test func sessionsAreUsedOnlyOnThePoolsExecutor() async throws {
        let key = DispatchSpecificKey<Int>()
        let queue = DispatchQueue(label: "engine")
        queue.setSpecific(key: key, value: 1)
        let factory = FakeSessionFactory(expectedQueue: key)
        let pool = makePool(.init(warmCount: 1, maximumCount: 2, sweepInterval: nil), factory: factory, executor: queue)
        let session = try await pool.acquire(for: Holder())
        try await pool.recycle(session)
        await pool.drain()
        #expect(factory.sessions.allSatisfy { $0.offExecutorCalls == 0 })
        #expect(session.resets == 1)
    }

    @Test func countersAddUp() async throws {
        let pool = makePool(.init(warmCount: 1, maximumCount: 2, sweepInterval: nil))
        await pool.start()
        let holder = Holder()
        let first = try await pool.acquire(for: holder)
        let second = try await pool.acquire(for: holder)
        try await pool.recycle(first)
        try await pool.recycle(second)
        await pool.waitForBackgroundWork()
        let statistics = await pool.statistics
        #expect(statistics.created == 2)
        #expect(statistics.hits + statistics.misses == 2)
        #expect(statistics.recycled == 2)
        #expect(statistics.idle == 2)
        #expect(statistics.inUse == 0)
    }
}
