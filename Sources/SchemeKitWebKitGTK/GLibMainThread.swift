// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import Foundation
    import SchemeKit
    import Synchronization

    /// A thread that owns the GLib default main context, initialises GTK on it and runs its main loop.
    ///
    /// GTK and WebKitGTK must be used from the one thread that iterates the default main context.
    /// An application whose main thread already runs a GLib loop (`g_application_run`) does not need
    /// this type; one whose main thread belongs to Swift concurrency or Dispatch (a test runner, an
    /// `async` main) starts a `GLibMainThread` once, and submits work through ``executor``.
    ///
    /// GTK can be initialised once per process: create at most one per process (keep it in a
    /// `static let` of your application).
    public final class GLibMainThread: Sendable {
        /// Runs jobs on the thread's main context.
        public let executor: GLibExecutor
        private let loop = Locked<OpaquePointer?>(nil)
        private let finished = DispatchSemaphore(value: 0)

        /// Starts the thread, initialises GTK there and waits until its loop runs.
        ///
        /// - Throws: ``WebKitGTKError`` when GTK cannot open a display (no `DISPLAY`: run under
        ///   `xvfb-run -a`).
        public convenience init() throws {
            try self.init(context: nil, initialisingGTK: true)
        }

        /// Starts a thread that owns `context` (`nil`: the default main context) and runs its loop;
        /// with `initialisingGTK`, GTK is initialised there first. Tests use a context of their own
        /// without GTK.
        init(context: OpaquePointer?, initialisingGTK: Bool) throws {
            executor = GLibExecutor(context: context)
            let ready = DispatchSemaphore(value: 0)
            let initialised = Mutex(false)
            let loop = self.loop
            let finished = self.finished
            nonisolated(unsafe) let given = context
            let thread = Thread {
                let context = given ?? g_main_context_default()
                g_main_context_acquire(context)
                let ok = !initialisingGTK || gtk_init_check() != 0
                initialised.withLock { $0 = ok }
                guard ok else {
                    ready.signal()
                    finished.signal()
                    return
                }
                let mainLoop = g_main_loop_new(context, 0)
                loop.withLock { $0 = mainLoop }
                // Signal from inside the loop so callers only proceed once it iterates.
                let signal = Unmanaged.passRetained(SemaphoreBox(ready)).toOpaque()
                g_idle_add_full(
                    G_PRIORITY_DEFAULT,
                    { data in
                        Unmanaged<SemaphoreBox>.fromOpaque(data!).takeRetainedValue().semaphore.signal()
                        return 0
                    }, signal, nil)
                g_main_loop_run(mainLoop)
                g_main_context_release(context)
                finished.signal()
            }
            thread.name = "GLib main context"
            thread.stackSize = 8 << 20
            thread.start()
            ready.wait()
            guard initialised.withLock({ $0 }) else {
                throw WebKitGTKError.noDisplay
            }
        }

        /// Quits the main loop and waits for the thread to end. Call once, when every view is gone,
        /// before the process exits: WebKit must not be iterating while exit-time destructors run.
        /// Nothing may be submitted to ``executor`` afterwards.
        ///
        /// Idempotent: a later call (the exit handler after an explicit stop, say) returns once the
        /// thread has ended, and queues nothing on the dead loop.
        public func stop() {
            // The first caller takes the loop; every caller then waits for the thread's end, passing
            // the signal on to the next.
            if let mainLoop = loop.withLock({ loop in
                defer { loop = nil }; return loop
            }) {
                nonisolated(unsafe) let quitting = mainLoop
                executor.execute { g_main_loop_quit(quitting) }
            }
            finished.wait()
            finished.signal()
        }

        /// Makes `exit()` safe from any thread: registers an `on_exit` handler that stops this thread's
        /// loop and ends the process with `_exit(status)` at once.
        ///
        /// WebKit registers exit handlers that release its default objects; they abort when `exit()`
        /// runs on a thread other than GTK's (a test runner's worker, a Swift `async` main). Exit
        /// handlers run in reverse order, so this one — installed *after* WebKit made its objects (after
        /// the first view loaded) — runs first and skips them. Only the first call installs it.
        public func installExitHandler() {
            let first = GLibMainThread.exiting.withLock { exiting -> Bool in
                defer { exiting = exiting ?? self }
                return exiting == nil
            }
            guard first else { return }
            on_exit(
                { status, _ in
                    GLibMainThread.exiting.withLock { $0 }?.stop()
                    fflush(nil)
                    _exit(status)
                }, nil)
        }

        private static let exiting = Mutex<GLibMainThread?>(nil)

        private final class SemaphoreBox: @unchecked Sendable {
            let semaphore: DispatchSemaphore
            init(_ semaphore: DispatchSemaphore) { self.semaphore = semaphore }
        }
    }
#endif
