// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import Foundation
    import SchemeKit

    /// The bounded buffer between a handler writing a response body and WebKit reading it through a
    /// ``SchemeInputStream``.
    ///
    /// Writers (``push(_:)``, ``finish()``, ``fail(_:)``, ``waitForCapacity()``) run on the handler's
    /// thread and never wait for the main context: they append under the lock and return. Readers (the
    /// stream's `read_async`) run on the GLib main context. A write that finds a read pending schedules
    /// one job on the main context to complete it — writes landing before that job runs are served by
    /// it together, so a handler writing a small file costs no main-context round trip at all when
    /// WebKit reads after the body is in. All state sits behind one mutex. At most ``capacity`` bytes
    /// (plus one chunk) are ever buffered: a writer that finds the buffer full suspends in
    /// ``waitForCapacity()`` until WebKit reads.
    ///
    /// Stop detection: a read whose `GCancellable` fires, or the stream closed or finalised before the
    /// end of the body, calls `onStop` once — the adapter turns that into ``SchemeKit/SchemeTask/stop()``.
    /// `onStop` runs *before* the pipe refuses writes, so a write the guarded task delivered before the
    /// stop still lands (and is dropped with the buffer), and one refused by the pipe really came after
    /// the stop.
    ///
    /// `@unchecked Sendable`: every mutable field is inside `state`; the raw GLib pointers in a pending
    /// read are only touched on the main context.
    final class SchemeBodyPipe: @unchecked Sendable {
        /// A read WebKit is waiting on: the `GTask` to complete and the buffer to fill.
        struct PendingRead {
            var task: OpaquePointer
            var buffer: UnsafeMutableRawPointer
            var count: Int
            var cancellable: UnsafeMutablePointer<GCancellable>?
            var cancelHandler: gulong
        }

        struct State {
            var chunks: [Data] = []
            var offset = 0
            var buffered = 0
            var ended = false
            var failure: String?
            /// `stop()` began: `onStop` was called (or is being called).
            var stopRequested = false
            var stopped = false
            var endDelivered = false
            var pending: PendingRead?
            /// A main-context job that serves `pending` is queued.
            var serveScheduled = false
            var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
            var nextWaiter = 0
            var bytesRead = 0
            var bytesPushed = 0
        }

        /// Buffered bytes above which writers wait.
        let capacity: Int
        private let state = Locked(State())
        private let executor: GLibExecutor
        private let onStop: @Sendable () -> Void

        init(capacity: Int, executor: GLibExecutor, onStop: @escaping @Sendable () -> Void) {
            self.capacity = capacity
            self.executor = executor
            self.onStop = onStop
        }

        /// Bytes WebKit has read so far.
        var bytesRead: Int { state.withLock { $0.bytesRead } }

        /// Bytes the handler handed over so far.
        var bytesPushed: Int { state.withLock { $0.bytesPushed } }

        // MARK: Writer side (any thread)

        /// Appends body bytes; `false` when the pipe is stopped or ended. A pending read is served on
        /// the main context.
        func push(_ data: Data) -> Bool {
            var accepted = true
            let schedule = state.withLock { state -> Bool in
                guard !state.stopped, !state.ended else {
                    accepted = false
                    return false
                }
                state.chunks.append(data)
                state.buffered += data.count
                state.bytesPushed += data.count
                return scheduleLocked(&state)
            }
            if schedule { scheduleServe() }
            return accepted
        }

        /// Marks the end of the body; a waiting read returns the remaining bytes, then 0.
        func finish() {
            let schedule = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.ended = true
                return scheduleLocked(&state)
            }
            if schedule { scheduleServe() }
        }

        /// Ends the body with an error that the next read reports.
        func fail(_ message: String) {
            let schedule = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.ended = true
                state.failure = message
                return scheduleLocked(&state)
            }
            if schedule { scheduleServe() }
        }

        /// Suspends the calling handler while the buffer holds `capacity` bytes or more.
        func waitForCapacity() async {
            let id = state.withLock { state -> Int in
                state.nextWaiter += 1
                return state.nextWaiter
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if state.buffered < capacity || state.stopped || Task.isCancelled { return true }
                        state.waiters[id] = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
            }
        }

        // MARK: Reader side (main context, from the GInputStream vfuncs)

        /// `read_async`: completes `task` now when bytes, the end or an error are there; otherwise
        /// keeps it until they are, or until `cancellable` fires.
        func read(
            task: OpaquePointer,
            buffer: UnsafeMutableRawPointer,
            count: Int,
            cancellable: UnsafeMutablePointer<GCancellable>?
        ) {
            if let cancellable, g_cancellable_is_cancelled(cancellable) != 0 {
                Completion.error(task, G_IO_ERROR_CANCELLED, "read cancelled").run()
                stop()
                return
            }
            let completed = state.withLock { state -> Completion? in
                state.pending = PendingRead(
                    task: task, buffer: buffer, count: count, cancellable: cancellable, cancelHandler: 0)
                return serveLocked(&state)
            }
            if let completed {
                completed.run()
                return
            }
            guard let cancellable else { return }
            let handler = g_cancellable_connect(
                cancellable,
                unsafeBitCast(SchemeBodyPipe.cancelledCallback, to: GCallback.self),
                Unmanaged.passRetained(self).toOpaque(),
                { data in Unmanaged<SchemeBodyPipe>.fromOpaque(data!).release() }
            )
            state.withLock { state in
                if state.pending?.task == task { state.pending?.cancelHandler = handler }
            }
        }

        /// `read_fn`, the blocking read WebKit does not use: never blocks, answers "would block"
        /// when nothing is buffered.
        func readNow(into buffer: UnsafeMutableRawPointer, count: Int) -> Result<Int, ReadError> {
            state.withLock { state in
                if state.buffered > 0 { return .success(copyLocked(&state, into: buffer, count: count)) }
                if let failure = state.failure { return .failure(ReadError(code: G_IO_ERROR_FAILED, message: failure)) }
                if state.ended {
                    state.endDelivered = true
                    return .success(0)
                }
                if state.stopped { return .failure(ReadError(code: G_IO_ERROR_CANCELLED, message: "stopped")) }
                return .failure(ReadError(code: G_IO_ERROR_WOULD_BLOCK, message: "no data yet"))
            }
        }

        /// The stream was closed or finalised: a stop unless the whole body was read.
        func detach() {
            let complete = state.withLock { $0.endDelivered && $0.failure == nil }
            if !complete { stop() }
        }

        /// Stops the pipe once (main context): calls `onStop` (the task's stop, after which no write
        /// reaches the pipe), then fails a pending read, drops the buffer and wakes writers.
        func stop() {
            let first = state.withLock { state -> Bool in
                let first = !state.stopRequested && !state.stopped && !state.endDelivered
                state.stopRequested = true
                return first
            }
            if first { onStop() }
            let (pending, waiters) = state.withLock { state in
                state.stopped = true
                state.chunks = []
                state.buffered = 0
                let pending = state.pending
                state.pending = nil
                let waiters = Array(state.waiters.values)
                state.waiters = [:]
                return (pending, waiters)
            }
            if let pending {
                disconnect(pending)
                Completion.error(pending.task, G_IO_ERROR_CANCELLED, "the load was cancelled").run()
            }
            for waiter in waiters { waiter.resume() }
        }

        // MARK: Helpers

        struct ReadError: Error {
            var code: GIOErrorEnum
            var message: String
        }

        /// How to complete a read, performed outside the lock.
        enum Completion {
            case bytes(OpaquePointer, Int, PendingRead, [CheckedContinuation<Void, Never>])
            case error(OpaquePointer, GIOErrorEnum, String)

            func run() {
                switch self {
                case .bytes(let task, let count, let pending, let waiters):
                    if pending.cancelHandler != 0, let cancellable = pending.cancellable {
                        g_cancellable_disconnect(cancellable, pending.cancelHandler)
                    }
                    g_task_return_int(task, gssize(count))
                    g_object_unref(UnsafeMutableRawPointer(task))
                    for waiter in waiters { waiter.resume() }
                case .error(let task, let code, let message):
                    g_task_return_error(
                        task, g_error_new_literal(schemekit_io_error_quark(), gint(code.rawValue), message))
                    g_object_unref(UnsafeMutableRawPointer(task))
                }
            }
        }

        /// Whether a writer must queue a serve job: a read is pending and no job is queued yet. Caller
        /// holds the lock.
        private func scheduleLocked(_ state: inout State) -> Bool {
            guard state.pending != nil, !state.serveScheduled else { return false }
            state.serveScheduled = true
            return true
        }

        /// Queues ``serve()`` on the main context.
        private func scheduleServe() {
            executor.execute { self.serve() }
        }

        /// The serve job (main context): completes the pending read with whatever the writers left.
        private func serve() {
            let completed = state.withLock { state -> Completion? in
                state.serveScheduled = false
                return serveLocked(&state)
            }
            completed?.run()
        }

        /// Serves the pending read if there is something to give it. Caller holds the lock.
        private func serveLocked(_ state: inout State) -> Completion? {
            guard let pending = state.pending else { return nil }
            if state.buffered > 0 {
                state.pending = nil
                let count = copyLocked(&state, into: pending.buffer, count: pending.count)
                var waiters: [CheckedContinuation<Void, Never>] = []
                if state.buffered < capacity {
                    waiters = Array(state.waiters.values)
                    state.waiters = [:]
                }
                return .bytes(pending.task, count, pending, waiters)
            }
            if let failure = state.failure {
                state.pending = nil
                disconnect(pending)
                return .error(pending.task, G_IO_ERROR_FAILED, failure)
            }
            if state.ended {
                state.pending = nil
                state.endDelivered = true
                return .bytes(pending.task, 0, pending, [])
            }
            if state.stopped {
                state.pending = nil
                disconnect(pending)
                return .error(pending.task, G_IO_ERROR_CANCELLED, "the load was cancelled")
            }
            return nil
        }

        private func copyLocked(_ state: inout State, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
            var copied = 0
            while copied < count, let first = state.chunks.first {
                let available = first.count - state.offset
                let take = min(available, count - copied)
                first.withUnsafeBytes { bytes in
                    (buffer + copied).copyMemory(from: bytes.baseAddress! + state.offset, byteCount: take)
                }
                copied += take
                state.offset += take
                if state.offset == first.count {
                    state.chunks.removeFirst()
                    state.offset = 0
                }
            }
            state.buffered -= copied
            state.bytesRead += copied
            return copied
        }

        private func disconnect(_ pending: PendingRead) {
            if pending.cancelHandler != 0, let cancellable = pending.cancellable {
                g_cancellable_disconnect(cancellable, pending.cancelHandler)
            }
        }

        /// The pending read's cancellable fired (on the cancelling thread): stop on the main context,
        /// outside the signal emission, where disconnecting the handler is allowed.
        private static let cancelledCallback: @convention(c) (UnsafeMutablePointer<GCancellable>?, gpointer?) -> Void =
            {
                _, data in
                let pipe = Unmanaged<SchemeBodyPipe>.fromOpaque(data!).takeUnretainedValue()
                pipe.executor.execute { pipe.stop() }
            }
    }
#endif
