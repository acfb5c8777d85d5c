/// The bookkeeping of a ``SessionPool``, as a pure state machine over session and waiter numbers.
///
/// It holds no session, no lock and no continuation: each `mutating` method takes one event and
/// returns what the pool must do (make, reset, tear down or hand out a session; wake or fail a
/// waiter). Holders are tracked by weak reference, so a released holder is visible to ``sweep()``
/// without any help from the holder.
struct SessionPoolStateMachine {
    typealias SessionID = Int
    typealias WaiterID = Int

    /// Something the pool must do.
    enum Action: Equatable {
        /// Make a session in the background with this number; report with ``created(_:success:)``.
        case create(SessionID)
        /// Reset the session; report with ``resetFinished(_:success:)``.
        case reset(SessionID)
        /// Tear the session down; it is forgotten already.
        case tearDown(SessionID)
        /// Resume the waiter with the session, now in use by it.
        case deliver(SessionID, to: WaiterID)
        /// Resume the waiter with an error.
        case failWaiter(WaiterID, SessionPoolError)
    }

    /// What ``acquire(for:)`` tells its caller.
    enum AcquireDecision: Equatable {
        /// Check the idle session's health, then report with ``checked(_:healthy:)``.
        case check(SessionID)
        /// Make a session for the caller with this number; report with ``created(_:success:)``.
        case create(SessionID)
        /// Suspend as this waiter until a ``Action/deliver(_:to:)`` or ``Action/failWaiter(_:_:)``.
        case wait(WaiterID)
        /// Throw this error.
        case fail(SessionPoolError)
    }

    /// Where a session is in its life.
    enum Phase: Equatable {
        case creating(forCaller: Bool)
        case idle
        case checking
        case inUse
        case resetting
    }

    struct Entry {
        var phase: Phase
        var uses = 0
        weak var holder: AnyObject?
    }

    struct Waiter {
        let id: WaiterID
        weak var holder: AnyObject?
    }

    let configuration: SessionPoolConfiguration
    private(set) var entries: [SessionID: Entry] = [:]
    /// Idle sessions, handed out from the end: sessions that served a holder before, the most
    /// recently returned last (it is the warmest: its engine caches hold what it loaded), above
    /// sessions never used, which wait at the front in the order they were made.
    private(set) var idle: [SessionID] = []
    private(set) var waiters: [Waiter] = []
    private(set) var statistics = SessionPoolStatistics()
    private(set) var isShutDown = false
    private var nextSession = 1
    private var nextWaiter = 1

    init(configuration: SessionPoolConfiguration) {
        self.configuration = configuration
    }

    // MARK: Events

    /// Makes the sessions needed to have ``SessionPoolConfiguration/warmCount`` ready.
    mutating func prewarm() -> [Action] {
        replenish()
    }

    /// A holder asks for a session.
    mutating func acquire(for holder: AnyObject) -> AcquireDecision {
        if isShutDown { return .fail(.shutDown) }
        if let id = idle.popLast() {
            entries[id]?.phase = .checking
            entries[id]?.holder = holder
            return .check(id)
        }
        if entries.count < configuration.maximumCount {
            let id = newSession(.creating(forCaller: true))
            entries[id]?.holder = holder
            statistics.misses += 1
            return .create(id)
        }
        switch configuration.exhaustion {
        case .fail:
            return .fail(.exhausted)
        case .wait:
            let id = nextWaiter
            nextWaiter += 1
            waiters.append(Waiter(id: id, holder: holder))
            return .wait(id)
        }
    }

    /// The health check of an idle session handed to a caller finished.
    ///
    /// - Returns: Whether the caller may take the session (otherwise it asks again), and what to do.
    mutating func checked(_ id: SessionID, healthy: Bool) -> (take: Bool, actions: [Action]) {
        guard entries[id]?.phase == .checking else { return (false, []) }
        if healthy && !isShutDown {
            entries[id]?.phase = .inUse
            entries[id]?.uses += 1
            statistics.hits += 1
            return (true, replenish())
        }
        entries[id] = nil
        if isShutDown { return (false, [.tearDown(id)]) }
        statistics.discarded += 1
        return (false, [.tearDown(id)] + replenish())
    }

    /// The factory finished making a session (or threw).
    mutating func created(_ id: SessionID, success: Bool) -> [Action] {
        guard case .creating(let forCaller) = entries[id]?.phase else { return [] }
        guard success else {
            entries[id] = nil
            statistics.discarded += 1
            // Not retried here: a factory that keeps failing would loop. Waiters keep waiting for a
            // session to come back, up to their timeout.
            return []
        }
        statistics.created += 1
        if isShutDown {
            entries[id] = nil
            return [.tearDown(id)]
        }
        if forCaller {
            entries[id]?.phase = .inUse
            entries[id]?.uses += 1
            return []
        }
        return makeAvailable(id)
    }

    /// The holder gave the session back (``SessionPool/recycle(_:)``).
    ///
    /// - Returns: `nil` when the session is not in use from this pool.
    mutating func release(_ id: SessionID) -> [Action]? {
        guard entries[id]?.phase == .inUse else { return nil }
        entries[id]?.holder = nil
        if isShutDown {
            entries[id] = nil
            return [.tearDown(id)]
        }
        if let uses = entries[id]?.uses, uses >= configuration.maximumReuses {
            entries[id] = nil
            statistics.retired += 1
            return [.tearDown(id)] + replenish()
        }
        entries[id]?.phase = .resetting
        return [.reset(id)]
    }

    /// A reset finished.
    mutating func resetFinished(_ id: SessionID, success: Bool) -> [Action] {
        guard entries[id]?.phase == .resetting else { return [] }
        guard success, !isShutDown else {
            entries[id] = nil
            if !isShutDown { statistics.discarded += 1 }
            return [.tearDown(id)] + replenish()
        }
        statistics.recycled += 1
        return makeAvailable(id)
    }

    /// Takes back every session whose holder is gone.
    mutating func sweep() -> [Action] {
        let orphans = entries.filter { $0.value.phase == .inUse && $0.value.holder == nil }.keys.sorted()
        var actions: [Action] = []
        for id in orphans {
            statistics.reclaimed += 1
            actions += release(id) ?? []
        }
        return actions
    }

    /// A waiter gave up (timeout or cancellation).
    ///
    /// - Returns: Whether it was still waiting (and is now removed); `false` when a session or an
    ///   error is already on its way to it.
    mutating func abandon(_ waiter: WaiterID) -> Bool {
        guard let index = waiters.firstIndex(where: { $0.id == waiter }) else { return false }
        waiters.remove(at: index)
        return true
    }

    /// Drops every idle session.
    mutating func drain() -> [Action] {
        let dropped = idle
        idle = []
        for id in dropped { entries[id] = nil }
        statistics.drained += dropped.count
        return dropped.map { .tearDown($0) }
    }

    /// Stops handing out sessions: idle ones are torn down, waiters fail, sessions in use are torn
    /// down when they come back.
    mutating func shutDown() -> [Action] {
        isShutDown = true
        let dropped = idle
        idle = []
        for id in dropped { entries[id] = nil }
        let failed = waiters.map { Action.failWaiter($0.id, .shutDown) }
        waiters = []
        return dropped.map { .tearDown($0) } + failed
    }

    // MARK: Queries

    /// The current counters, with ``SessionPoolStatistics/idle`` and ``SessionPoolStatistics/inUse`` filled.
    var snapshot: SessionPoolStatistics {
        var result = statistics
        result.idle = idle.count
        result.inUse = entries.values.count { $0.phase == .inUse }
        result.waiting = waiters.count
        return result
    }

    /// The phase of a session, or `nil` when the pool does not know it.
    func phase(of id: SessionID) -> Phase? { entries[id]?.phase }

    // MARK: Helpers

    private mutating func newSession(_ phase: Phase) -> SessionID {
        let id = nextSession
        nextSession += 1
        entries[id] = Entry(phase: phase)
        return id
    }

    /// A session is ready: the first waiter gets it, or it joins the idle set.
    private mutating func makeAvailable(_ id: SessionID) -> [Action] {
        if !waiters.isEmpty {
            let waiter = waiters.removeFirst()
            entries[id]?.phase = .inUse
            entries[id]?.uses += 1
            entries[id]?.holder = waiter.holder
            statistics.misses += 1
            return [.deliver(id, to: waiter.id)]
        }
        entries[id]?.phase = .idle
        entries[id]?.holder = nil
        if entries[id]?.uses == 0 {
            // A fresh session made in the background can be ready after one returned from a holder;
            // the returned one stays first in line whatever the order they finished in.
            let firstUsed = idle.firstIndex { entries[$0]?.uses ?? 0 > 0 } ?? idle.endIndex
            idle.insert(id, at: firstUsed)
        } else {
            idle.append(id)
        }
        return []
    }

    /// Starts background creations until `warmCount` sessions plus one per waiter are ready or
    /// coming (idle, resetting, being made), within the maximum.
    private mutating func replenish() -> [Action] {
        guard !isShutDown else { return [] }
        let target = configuration.warmCount + waiters.count
        var ready = entries.values.count {
            switch $0.phase {
            case .idle, .resetting, .creating(forCaller: false): true
            default: false
            }
        }
        var actions: [Action] = []
        while ready < target && entries.count < configuration.maximumCount {
            actions.append(.create(newSession(.creating(forCaller: false))))
            ready += 1
        }
        return actions
    }
}
