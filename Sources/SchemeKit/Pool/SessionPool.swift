import Dispatch

/// A pool of reusable engine sessions (web views): pre-warmed, handed out to holders, reset and
/// reused, replaced when broken.
///
/// A cold web view's first page load costs hundreds of milliseconds; a reused one a few. The pool
/// keeps ``SessionPoolConfiguration/warmCount`` sessions ready, hands one to each
/// ``acquire(for:)``, and takes it back with ``recycle(_:)``:
///
/// ```swift
/// let pool = SessionPool(configuration: .init(warmCount: 2, maximumCount: 4),
///                        executor: glibMainContext) { try await WebViewSession.make(context: context) }
/// await pool.start()                                  // optional: pre-warm now
/// let session = try await pool.acquire(for: self)    // a warm view, or a new one
/// // … use it …
/// await pool.recycle(session)                        // reset and back to the idle set
/// ```
///
/// ## Holders
/// The pool keeps a weak reference to each holder. A session whose holder is gone is taken back
/// (reset and returned, counted in ``SessionPoolStatistics/reclaimed``) by a *sweep*: at every
/// ``acquire(for:)``, every ``SessionPoolConfiguration/sweepInterval`` (default one second) while
/// the pool is started, and on ``sweep()``. Calling ``recycle(_:)`` yourself is faster.
///
/// ## Failures and limits
/// A session whose ``PoolableSession/reset()`` throws, or whose ``PoolableSession/isHealthy()``
/// is `false` after a reset or before a hand-out, is torn down and replaced. After
/// ``SessionPoolConfiguration/maximumReuses`` holders a session is torn down instead of reset.
/// At ``SessionPoolConfiguration/maximumCount`` sessions, ``acquire(for:)`` waits for one to come
/// back or fails, as ``SessionPoolConfiguration/exhaustion`` says. ``drain()`` drops idle sessions
/// (memory pressure).
///
/// ## Thread affinity
/// The pool is an actor whose executor is the `executor` you pass: every session method and the
/// factory run there (the GLib main context for WebKitGTK, `DispatchQueue.main` for WKWebView).
/// The pool is safe to call from any task.
public actor SessionPool<Session: PoolableSession> {
    /// Makes a new session; runs on the pool's executor.
    public typealias Factory = nonisolated(nonsending) @Sendable () async throws -> Session

    private nonisolated let serialExecutor: SessionPoolExecutor
    private let factory: Factory
    private var machine: SessionPoolStateMachine
    private var sessions: [Int: Session] = [:]
    private var numbers: [ObjectIdentifier: Int] = [:]
    private var waiting: [Int: CheckedContinuation<Session, any Error>] = [:]
    private var background: [Int: Task<Void, Never>] = [:]
    private var nextBackground = 0
    private var sweeper: Task<Void, Never>?
    private var started = false

    /// The executor every pool operation and session call runs on.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        serialExecutor.asUnownedSerialExecutor()
    }

    /// Creates a pool; nothing is made until ``start()`` or the first ``acquire(for:)``.
    ///
    /// - Parameters:
    ///   - configuration: Sizes, reuse limit, exhaustion policy. Default: ``SessionPoolConfiguration/init(warmCount:maximumCount:maximumReuses:exhaustion:sweepInterval:)``'s defaults.
    ///   - executor: Where sessions must be used (the engine's thread). Default: a private serial queue.
    ///   - factory: Makes a session; may throw (counted as discarded).
    public init(
        configuration: SessionPoolConfiguration = SessionPoolConfiguration(),
        executor: (any SchemeDeliveryQueue)? = nil,
        factory: @escaping Factory
    ) {
        self.serialExecutor = SessionPoolExecutor(executor ?? DispatchQueue(label: "SchemeKit.SessionPool"))
        self.factory = factory
        self.configuration = configuration
        self.machine = SessionPoolStateMachine(configuration: configuration)
    }

    /// The pool's configuration.
    package nonisolated let configuration: SessionPoolConfiguration

    /// The current counters.
    public var statistics: SessionPoolStatistics { machine.snapshot }

    /// Pre-warms ``SessionPoolConfiguration/warmCount`` sessions and starts the periodic sweep;
    /// returns when the warm sessions are made. Idempotent; ``acquire(for:)`` calls it lazily.
    public func start() async {
        guard !started else { return }
        started = true
        if let interval = configuration.sweepInterval {
            sweeper = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard let self else { return }
                    await self.sweep()
                }
            }
        }
        await perform(machine.prewarm())
        await waitForBackgroundWork()
    }

    /// Hands out a session for `holder`: an idle, healthy one (a hit), or a new one (a miss).
    ///
    /// At the maximum, waits for a session to come back or throws, per
    /// ``SessionPoolConfiguration/exhaustion``. The session stays the holder's until
    /// ``recycle(_:)`` or until the holder is deallocated (then a sweep takes it back).
    ///
    /// - Throws: ``SessionPoolError/exhausted``, ``SessionPoolError/timedOut``,
    ///   ``SessionPoolError/shutDown``, the factory's error, or `CancellationError`.
    public nonisolated func acquire(for holder: AnyObject) async throws -> Session {
        try await acquire(SessionHolderReference(holder))
    }

    private func acquire(_ holder: SessionHolderReference) async throws -> Session {
        await start()
        await perform(machine.sweep())
        while true {
            guard let object = holder.object else { throw CancellationError() }
            switch machine.acquire(for: object) {
            case .check(let id):
                guard let session = sessions[id] else { continue }
                let healthy = await session.isHealthy()
                let (take, actions) = machine.checked(id, healthy: healthy)
                await perform(actions)
                if take { return session }
            case .create(let id):
                let session: Session
                do {
                    session = try await factory()
                } catch {
                    await perform(machine.created(id, success: false))
                    throw error
                }
                adopt(session, as: id)
                await perform(machine.created(id, success: true))
                guard machine.phase(of: id) == .inUse else { throw SessionPoolError.shutDown }
                return session
            case .wait(let waiter):
                guard case .wait(let timeout) = configuration.exhaustion else { continue }
                return try await wait(waiter, timeout: timeout)
            case .fail(let error):
                throw error
            }
        }
    }

    /// Takes a session back: resets it and returns it to the idle set (or to a waiting caller).
    ///
    /// A session whose reset throws or which is unhealthy afterwards is torn down and replaced;
    /// one that reached ``SessionPoolConfiguration/maximumReuses`` is torn down. Returns when
    /// that is done.
    ///
    /// - Throws: ``SessionPoolError/foreignSession`` when the session is not in use from this pool.
    public func recycle(_ session: Session) async throws {
        guard let id = numbers[ObjectIdentifier(session)], let actions = machine.release(id) else {
            throw SessionPoolError.foreignSession
        }
        await perform(actions)
    }

    /// Takes back every session whose holder is gone; returns when they are reset.
    public func sweep() async {
        await perform(machine.sweep())
    }

    /// Tears down every idle session (on memory pressure). Sessions in use are not affected;
    /// the warm set is refilled by the next ``acquire(for:)`` or recycle.
    public func drain() async {
        await perform(machine.drain())
    }

    /// Stops the pool: idle sessions are torn down, waiters fail with ``SessionPoolError/shutDown``,
    /// sessions in use are torn down when recycled. Returns when idle sessions are torn down.
    public func shutDown() async {
        sweeper?.cancel()
        sweeper = nil
        await perform(machine.shutDown())
        await waitForBackgroundWork()
    }

    /// Returns when sessions being made in the background (pre-warming, replacements) are ready.
    package func waitForBackgroundWork() async {
        while let (_, task) = background.first {
            await task.value
        }
    }

    // MARK: Performing actions

    private func perform(_ actions: [SessionPoolStateMachine.Action]) async {
        for action in actions {
            switch action {
            case .create(let id):
                let key = nextBackground
                nextBackground += 1
                background[key] = Task {
                    await self.makeInBackground(id)
                    self.background[key] = nil
                }
            case .reset(let id):
                guard let session = sessions[id] else { continue }
                var healthy = false
                do {
                    try await session.reset()
                    healthy = await session.isHealthy()
                } catch {}
                await perform(machine.resetFinished(id, success: healthy))
            case .tearDown(let id):
                guard let session = sessions.removeValue(forKey: id) else { continue }
                numbers[ObjectIdentifier(session)] = nil
                await session.tearDown()
            case .deliver(let id, let waiter):
                guard let session = sessions[id] else { continue }
                waiting.removeValue(forKey: waiter)?.resume(returning: session)
            case .failWaiter(let waiter, let error):
                waiting.removeValue(forKey: waiter)?.resume(throwing: error)
            }
        }
    }

    private func makeInBackground(_ id: Int) async {
        do {
            let session = try await factory()
            adopt(session, as: id)
            await perform(machine.created(id, success: true))
        } catch {
            await perform(machine.created(id, success: false))
        }
    }

    private func adopt(_ session: Session, as id: Int) {
        sessions[id] = session
        numbers[ObjectIdentifier(session)] = id
    }

    private func wait(_ waiter: Int, timeout: Duration) async throws -> Session {
        let timer = Task { [weak self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            await self?.abandon(waiter, with: SessionPoolError.timedOut)
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiting[waiter] = continuation
            }
        } onCancel: {
            Task { await self.abandon(waiter, with: CancellationError()) }
        }
    }

    private func abandon(_ waiter: Int, with error: any Error) {
        guard machine.abandon(waiter) else { return }
        waiting.removeValue(forKey: waiter)?.resume(throwing: error)
    }
}
