// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import Foundation
    import SchemeKit

    /// A thread that owns the GLib default main context, initialises GTK on it and runs its main loop.
    ///
    /// GTK and WebKitGTK must be used from the one thread that iterates the default main context.
    /// An application whose main thread already runs a GLib loop (`g_application_run`) does not need
    /// this type; one whose main thread belongs to Swift concurrency or Dispatch (a test runner, an
    /// `async` main) starts a `GLibMainThread` once, and submits work through ``executor``.
    ///
    /// GTK can be initialised once per process: create at most one per process (keep it in a
    /// `static let` of your application).
    ///
    /// ## Exit
    /// A program may simply return from `main` (or call `exit`), with or without ``stop()``: the
    /// thread makes that safe by default. `exit` runs the process's exit handlers on the thread
    /// that called it, and the libraries under WebKit register some — C++ static destructors of
    /// WebKit, Mesa's software renderer and others — that free state this thread may still be
    /// using, or that must run on it; they corrupted the heap or aborted in about one exit in five,
    /// losing buffered standard output. So the thread registers an exit handler of its own, and
    /// registers it again after the points where those libraries register theirs (the adapter
    /// registering its schemes, the first views being made), so that it runs first: it stops
    /// the loop (waiting at most two seconds), flushes C standard I/O (Swift's `print`), and ends
    /// the process at once with `_exit` and the same status, skipping the other handlers. A
    /// program that needs an exit handler of its own to run registers it after creating its first
    /// view (handlers run last-registered first).
    public final class GLibMainThread: Sendable {
        /// Runs jobs on the thread's main context.
        public let executor: GLibExecutor
        private let state = ConditionLock(State())

        private struct State {
            var phase = Phase.starting
            /// The loop, until someone asks it to quit.
            var loop: OpaquePointer?
            /// The thread's id, once it runs.
            var thread: pthread_t?
        }

        private enum Phase { case starting, failed, running, finished }

        /// Starts the thread, initialises GTK there and waits until its loop runs.
        ///
        /// - Throws: `EngineError` when GTK cannot open a display (no `DISPLAY`: run under
        ///   `xvfb-run -a`). An X server that `DISPLAY` names but that refuses connections (one
        ///   resetting after its last client left, or still starting) is waited for up to 3 seconds.
        public convenience init() throws {
            try self.init(context: nil, initialisingGTK: true)
        }

        /// Starts a thread that owns `context` (`nil`: the default main context) and runs its loop;
        /// with `initialisingGTK`, GTK is initialised there first (and the exit handler installed).
        /// Tests use a context of their own without GTK.
        init(context: OpaquePointer?, initialisingGTK: Bool) throws {
            executor = GLibExecutor(context: context)
            let state = self.state
            let executor = self.executor
            nonisolated(unsafe) let given = context
            let thread = Thread {
                let context = given ?? g_main_context_default()
                g_main_context_acquire(context)
                guard !initialisingGTK || GLibMainThread.initialiseGTK() else {
                    g_main_context_release(context)
                    state.withLock { $0.phase = .failed }
                    return
                }
                let mainLoop = g_main_loop_new(context, 0)
                state.withLock {
                    $0.loop = mainLoop
                    $0.thread = pthread_self()
                }
                // Report "running" from inside the loop (on this thread's context, which need not be
                // the default one), so callers only proceed once it iterates.
                let source = g_idle_source_new()
                g_source_set_callback(
                    source,
                    { data in
                        Unmanaged<StateBox>.fromOpaque(data!).takeUnretainedValue().state.withLock {
                            if $0.phase == .starting { $0.phase = .running }
                        }
                        return 0
                    }, Unmanaged.passRetained(StateBox(state)).toOpaque(),
                    { data in Unmanaged<StateBox>.fromOpaque(data!).release() })
                g_source_attach(source, context)
                g_source_unref(source)
                g_main_loop_run(mainLoop)
                g_main_loop_unref(mainLoop)
                g_main_context_release(context)
                executor.stopRunning()
                state.withLock { $0.phase = .finished }
            }
            thread.name = "GLib main context"
            thread.stackSize = 8 << 20
            thread.start()
            let phase = state.wait { $0.phase == .starting ? nil : $0.phase }
            guard phase != .failed else { throw EngineError.noDisplay }
            if initialisingGTK { Self.installExitHandler(for: self) }
        }

        /// Initialises GTK on the calling thread; `false` when no display opens.
        ///
        /// With `DISPLAY` set, waits up to ``displayWaitLimit`` for the X server to accept a
        /// connection and holds it while GTK connects (``XDisplayHold``): a server resetting after
        /// its last client left would otherwise fail GTK's one attempt. Without a display to wait
        /// for it fails at once.
        static func initialiseGTK() -> Bool {
            let hold = XDisplayHold(waitingUpTo: displayWaitLimit)
            let initialised = gtk_init_check() != 0
            hold?.release()
            return initialised
        }

        /// How long ``initialiseGTK()`` waits for the X server `DISPLAY` names: 3 s.
        static let displayWaitLimit = Duration.seconds(3)

        /// Whether the caller runs on this thread (inside a job of ``executor``, or a GLib callback).
        var isCurrent: Bool {
            guard let thread = state.withLock({ $0.thread }) else { return false }
            return pthread_equal(thread, pthread_self()) != 0
        }

        /// Quits the main loop and waits for the thread to end. Call once every view is gone;
        /// nothing may be submitted to ``executor`` afterwards. Calling it is optional: the exit
        /// handler stops the loop before the process exits (see Exit).
        ///
        /// Idempotent. Called on the thread itself (from a job or a GLib callback), it asks the loop
        /// to quit and returns at once: the thread ends when the current callback returns.
        public func stop() {
            _ = stop(waitingAtMost: nil)
        }

        /// Quits the loop and waits at most `limit` (`nil`: as long as it takes) for the thread to
        /// end; `true` when it ended (or was never running).
        @discardableResult
        func stop(waitingAtMost limit: Duration?) -> Bool {
            let loop = state.withLock { state -> OpaquePointer? in
                defer { state.loop = nil }
                return state.loop
            }
            if let loop {
                nonisolated(unsafe) let quitting = loop
                if isCurrent {
                    g_main_loop_quit(quitting)
                    return false
                }
                executor.execute { g_main_loop_quit(quitting) }
            }
            if isCurrent { return false }
            return state.wait(timeout: limit) { $0.phase == .running || $0.phase == .starting ? nil : true } ?? false
        }

        // MARK: Exit handling

        /// The thread the exit handler stops: the first one made with GTK.
        private static let process = Locked<(thread: GLibMainThread?, registrations: Int)>((nil, 0))

        /// At most this many registrations: one at start, then one each time WebKit may have
        /// registered handlers of its own (the adapter, the first views). Each costs a few bytes
        /// that are never freed, so later views do not register again.
        private static let registrationLimit = 16

        /// Makes `thread` the one the exit handler stops, and registers the handler.
        private static func installExitHandler(for thread: GLibMainThread) {
            let first = process.withLock { process -> Bool in
                guard process.thread == nil else { return false }
                process.thread = thread
                return true
            }
            if first { registerExitHandlerAgain() }
        }

        /// Registers the exit handler once more, so that it runs before every exit handler
        /// registered until now (they run last-registered first). Called after the points where
        /// WebKit and the libraries it loads register theirs. Does nothing without a GTK thread.
        static func registerExitHandlerAgain() {
            let register = process.withLock { process -> Bool in
                guard process.thread != nil, process.registrations < registrationLimit else { return false }
                process.registrations += 1
                return true
            }
            guard register else { return }
            on_exit({ status, _ in GLibMainThread.exiting(status: status) }, nil)
        }

        /// The exit handler: stops the loop (unless called on its thread, which cannot wait for
        /// itself), flushes standard I/O and ends the process with `status`, skipping the exit
        /// handlers of the libraries under WebKit.
        private static func exiting(status: Int32) -> Never {
            if let thread = process.withLock({ $0.thread }), !thread.isCurrent {
                thread.stop(waitingAtMost: .seconds(2))
            }
            fflush(nil)
            _exit(status)
        }

        /// Carries the state into the idle callback that reports the loop running.
        private final class StateBox: Sendable {
            let state: ConditionLock<State>
            init(_ state: ConditionLock<State>) { self.state = state }
        }
    }
#endif
