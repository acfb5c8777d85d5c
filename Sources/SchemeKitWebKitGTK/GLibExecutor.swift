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
        private struct Queue {
            var jobs: [@Sendable () -> Void] = []
            var scheduled = false
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

        /// Queues `job` to run on the main context.
        public func execute(_ job: @escaping @Sendable () -> Void) {
            let schedule = queue.withLock { queue -> Bool in
                queue.jobs.append(job)
                guard !queue.scheduled else { return false }
                queue.scheduled = true
                return true
            }
            guard schedule else { return }
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
        }

        /// Runs every queued job, in order. Jobs queued meanwhile schedule a new source.
        private func drain() {
            let jobs = queue.withLock { queue -> [@Sendable () -> Void] in
                queue.scheduled = false
                defer { queue.jobs = [] }
                return queue.jobs
            }
            for job in jobs { job() }
        }

        /// Runs `body` on the main context and returns its result.
        public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
            try await withCheckedThrowingContinuation { continuation in
                execute { continuation.resume(with: Result { try body() }) }
            }
        }
    }
#endif
