/// The engine's handle on one request: run it, stop it, see who answered.
///
/// An engine adapter gets a `SchemeTask` from ``SchemeRegistry/task(for:sink:)`` for each request,
/// then either awaits ``run()`` in a task of its own or calls ``start()`` to run it in a new one.
/// When the engine gives up on the request (navigation away, view closed, connection dropped) it
/// calls ``stop()``, from any thread, at any moment: the handler's Swift task is cancelled and
/// nothing more reaches the sink.
///
/// ```swift
/// let task = registry.task(for: request, sink: mySink)
/// task.start()
/// // later, when the view navigates away:
/// task.stop()
/// ```
public struct SchemeTask: Sendable {
    let storage: GuardedTask

    init(storage: GuardedTask) {
        self.storage = storage
    }

    /// The request this task answers.
    public var request: SchemeRequest { storage.request }

    /// Runs the handler in the calling Swift task; returns when the task is finished, failed or stopped.
    ///
    /// Runs at most once; a second call, or a call after ``stop()``, returns at once.
    public func run() async {
        await storage.run()
    }

    /// Runs the handler in a new Swift task and returns immediately.
    public func start() {
        let storage = self.storage
        Task { await storage.run() }
    }

    /// Stops the task: no further write reaches the sink, and the handler's work is cancelled.
    ///
    /// Idempotent; ignored after a finish or failure reached the sink.
    public func stop() {
        storage.stop()
    }

    /// Whether the engine stopped this task.
    public var isStopped: Bool { storage.isStopped }

    /// This task's own counters, in the registry's shape: `started` is 1, at most one of
    /// `finished`, `failed` and `stopped` is 1 (all 0 while the task is live), plus the writes
    /// dropped after the stop and the handler's protocol misuses for this task alone.
    public var metrics: SchemeTaskMetrics { storage.metrics }

    /// The name of the handler that wrote the response head (`"not-found"` for the registry's 404),
    /// or `nil` while none has.
    public var respondingHandler: String? { storage.respondingHandler }
}
