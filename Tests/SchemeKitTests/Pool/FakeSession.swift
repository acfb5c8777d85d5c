import Dispatch
import SchemeKit
import Synchronization

/// A session that records what the pool did to it, and fails on request.
final class FakeSession: PoolableSession {
    struct State {
        var resets = 0
        var tornDown = false
        var failNextReset = false
        var healthy = true
        var injected: [String] = []
        var offExecutorCalls = 0
    }

    let number: Int
    let state = SchemeKit.Locked(State())
    /// The queue the pool must call this session on, if any.
    let expectedQueue: DispatchSpecificKey<Int>?

    init(number: Int, expectedQueue: DispatchSpecificKey<Int>? = nil) {
        self.number = number
        self.expectedQueue = expectedQueue
    }

    var resets: Int { state.withLock { $0.resets } }
    var isTornDown: Bool { state.withLock { $0.tornDown } }
    var offExecutorCalls: Int { state.withLock { $0.offExecutorCalls } }
    var injected: [String] {
        get { state.withLock { $0.injected } }
        set { state.withLock { $0.injected = newValue } }
    }
    func failNextReset() { state.withLock { $0.failNextReset = true } }
    func crash() { state.withLock { $0.healthy = false } }

    private func checkExecutor() {
        guard let expectedQueue, DispatchQueue.getSpecific(key: expectedQueue) == nil else { return }
        state.withLock { $0.offExecutorCalls += 1 }
    }

    nonisolated(nonsending) func reset() async throws {
        checkExecutor()
        try state.withLock { state in
            state.resets += 1
            state.injected = []
            if state.failNextReset {
                state.failNextReset = false
                throw ResetFailed()
            }
        }
    }

    nonisolated(nonsending) func isHealthy() async -> Bool {
        checkExecutor()
        return state.withLock { $0.healthy }
    }

    nonisolated(nonsending) func tearDown() async {
        checkExecutor()
        state.withLock { $0.tornDown = true }
    }

    struct ResetFailed: Error {}
}

/// Makes numbered fake sessions and remembers them.
final class FakeSessionFactory: Sendable {
    let made = Locked<[FakeSession]>([])
    let expectedQueue: DispatchSpecificKey<Int>?

    init(expectedQueue: DispatchSpecificKey<Int>? = nil) {
        self.expectedQueue = expectedQueue
    }

    func make() -> FakeSession {
        made.withLock { made in
            let session = FakeSession(number: made.count + 1, expectedQueue: expectedQueue)
            made.append(session)
            return session
        }
    }

    var sessions: [FakeSession] { made.withLock { $0 } }
}
