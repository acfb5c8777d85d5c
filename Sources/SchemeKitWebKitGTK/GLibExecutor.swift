// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    public import SchemeKit

    /// A `SchemeDeliveryQueue` that runs jobs on a GLib main context — where every WebKitGTK
    /// call must happen.
    ///
    /// Jobs run serially, in submission order, from one source attached to the context at default
    /// priority; ``execute(_:)`` never runs a job on the caller's stack, so it is also a valid
    /// `SerialExecutor` base for a `SessionPool`. Callable from any thread.
    ///
    /// ```swift
    /// let glib = GLibExecutor()            // the default main context
    /// let pool = SessionPool(executor: glib) { try await WebViewSession.make(context: context) }
    /// ```
    public final class GLibExecutor: SchemeDeliveryQueue {
        /// A queued job, and what tells its waiter when it will never run.
        private struct Job {
            var run: @Sendable () -> Void
            var abandon: (@Sendable () -> Void)?
        }

        private struct Queue {
            var jobs: [Job] = []
            var scheduled = false
            /// The context's loop has ended (``GLibMainThread/stop()``): nothing runs any more.
            var stopped = false
        }

        private let queue = Locked(Queue())
        /// The context jobs run on; `nil` means the global default main context.
        private nonisolated(unsafe) let context: OpaquePointer?

        /// Creates an executor for `context`.
        ///
        /// - Parameter context: A `GMainContext`. Default: `nil`, the global default main context
        ///   (the one GTK and WebKit use).
        public init(context: OpaquePointer? = nil) {
            self.context = context
        }

        /// Queues `job` to run on the main context. After the ``GLibMainThread`` that owns the
        /// context stopped, `job` is dropped (it would never run).
        public func execute(_ job: @escaping @Sendable () -> Void) {
            submit(Job(run: job, abandon: nil))
        }

        /// Queues `job`; `false` when the executor has stopped (the job is not queued).
        @discardableResult
        private func submit(_ job: Job) -> Bool {
            let schedule = queue.withLock { queue -> Bool? in
                guard !queue.stopped else { return nil }
                queue.jobs.append(job)
                guard !queue.scheduled else { return false }
                queue.scheduled = true
                return true
            }
            guard let schedule else { return false }
            guard schedule else { return true }
            let source = g_idle_source_new()
            g_source_set_priority(source, G_PRIORITY_DEFAULT)
            g_source_set_callback(
                source,
                { data in
                    Unmanaged<GLibExecutor>.fromOpaque(data!).takeUnretainedValue().drain()
                    return 0  // G_SOURCE_REMOVE
                },
                Unmanaged.passRetained(self).toOpaque(),
                { data in Unmanaged<GLibExecutor>.fromOpaque(data!).release() }
            )
            g_source_attach(source, context)
            g_source_unref(source)
            return true
        }

        /// Called once the context's loop has ended for good: later jobs are refused, and the jobs
        /// still queued are abandoned (a ``run(_:)`` waiting on one throws).
        func stopRunning() {
            let left = queue.withLock { queue -> [Job] in
                queue.stopped = true
                defer { queue.jobs = [] }
                return queue.jobs
            }
            for job in left { job.abandon?() }
        }

        /// Runs every queued job, in order. Jobs queued meanwhile schedule a new source.
        private func drain() {
            let jobs = queue.withLock { queue -> [Job] in
                queue.scheduled = false
                defer { queue.jobs = [] }
                return queue.jobs
            }
            for job in jobs { job.run() }
        }

        /// Runs `body` on the main context and returns its result.
        ///
        /// - Throws: What `body` throws; `EngineError` with code `closed` when the
        ///   ``GLibMainThread`` that owns the context has stopped, before or while this waited (it
        ///   used to wait for ever).
        public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
            try await withCheckedThrowingContinuation { continuation in
                // A job either runs (drained) or is abandoned (taken by `stopRunning`), never both.
                let job = Job(
                    run: { continuation.resume(with: Result { try body() }) },
                    abandon: { continuation.resume(throwing: EngineError.mainThreadStopped) })
                if !submit(job) { continuation.resume(throwing: EngineError.mainThreadStopped) }
            }
        }
    }
#endif
