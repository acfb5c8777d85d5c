/// The engine's handle on one request: run it, stop it, wait for it, see who answered.
///
/// An engine adapter gets a `SchemeTask` from ``SchemeRegistry/task(for:sink:)`` (or
/// ``SchemeRegistry/task(for:makeSink:)`` when the sink needs its task) for each request and calls
/// ``start(immediately:)``; to run a request to completion in the calling Swift task
/// instead, it calls ``SchemeRegistry/handle(_:sink:)``. When the engine gives up on the request
/// (navigation away, view closed, connection dropped) it calls ``stop()``, from any thread, at
/// any moment: the handler's own Swift task is cancelled and nothing more reaches the sink.
///
/// The handler always runs in a Swift task of its own, so a stop never cancels the engine's
/// task: an embedder may `await registry.handle(request, sink: sink)` from the task it cares
/// about (or at top level) and go on after a stop.
///
/// ```swift
/// let task = registry.task(for: request, sink: mySink)
/// task.start()
/// // later, when the view navigates away:
/// task.stop()
/// await task.waitForCompletion()   // the handler returned; its file descriptor is closed
/// ```
public struct SchemeTask: Sendable {
    let storage: GuardedTask

    init(storage: GuardedTask) {
        self.storage = storage
    }

    /// The request this task answers.
    public var request: SchemeRequest { storage.request }

    /// Runs the handler and returns when the task is finished, failed or stopped and the handler
    /// has returned.
    ///
    /// The handler runs in a child Swift task, started on the calling thread (no hop until it
    /// first suspends). Cancelling the calling task stops this task; stopping this task never
    /// cancels the calling task. Runs at most once: a second call, or a call after ``stop()``,
    /// returns at once.
    package nonisolated(nonsending) func run() async {
        await storage.run()
    }

    /// Runs the handler in a new Swift task and returns immediately.
    ///
    /// A task runs once: a second call is ignored (the first run answers, and
    /// ``waitForCompletion()`` waits for it), as is a call after ``stop()``.
    ///
    /// - Parameter immediately: Start the handler on the calling thread and run it there until
    ///   its first suspension (`Task.immediate`), which spares a thread hop for handlers that
    ///   answer at once (a small cached file). Use it only from a thread that may run handler
    ///   code; an engine whose callbacks come on a UI or main-loop thread leaves it `false`.
    ///   On Apple platforms before macOS 26 / iOS 26 it starts a new task as usual.
    ///   Default: `false`.
    public func start(immediately: Bool = false) {
        storage.launch(immediately ? .immediate : .newTask)
    }

    /// Waits until the handler has returned and the task holds nothing more of its work — after
    /// a finish, a failure or a stop alike — so an engine knows when the resources a handler
    /// held (a file descriptor, an upstream connection) are released.
    ///
    /// Returns at once for a task that was stopped before it ran. Waits until the task is run
    /// (or stopped) for one that was neither started nor stopped.
    public func waitForCompletion() async {
        await storage.waitForCompletion()
    }

    /// Stops the task: no further write reaches the sink, and the handler's work is cancelled.
    ///
    /// Idempotent; ignored after a terminal event reached the sink. May be called from inside the
    /// task's own sink callbacks. The handler's Swift task is cancelled after the task's lock is
    /// released, so cancellation handlers never run under it.
    public func stop() {
        storage.stop()
    }

    /// Whether the engine stopped this task.
    public var isStopped: Bool { storage.isStopped }

    /// This task's own counters, in the registry's shape: `started` is 1, at most one of
    /// `finished`, `failed`, `stopped` and `passed` is 1 (all 0 while the task is live), plus the
    /// writes dropped after the stop and the handler's protocol misuses for this task alone.
    public var metrics: SchemeTaskMetrics { storage.metrics }

    /// The name of the handler that wrote the response head (`"not-found"` for the registry's 404),
    /// or `nil` while none has.
    public var respondingHandler: String? { storage.respondingHandler }
}
