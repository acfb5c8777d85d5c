public import Dispatch

/// A serial place where an engine wants its sink called: a main queue, a GLib main context.
///
/// This decides where the *engine's* sink methods run, never where handlers run (they always run
/// in a Swift task of their own). A sink without one (`deliveryQueue == nil`, the default) is
/// called inline, on the handler's thread, under the task's lock — the fastest choice when the
/// engine's callbacks are thread-safe.
///
/// ## Implementation requirements
/// Jobs run one at a time in the order they were submitted. ``execute(_:)`` may be called from
/// any thread and must not run the job synchronously on the caller's stack unless the caller is
/// already on the queue's thread.
public protocol SchemeDeliveryQueue: Sendable {
    /// Schedules `job` to run on the queue.
    func execute(_ job: @escaping @Sendable () -> Void)
}

extension DispatchQueue: SchemeDeliveryQueue {
    /// Runs the job asynchronously on the queue. Use a serial queue (such as `.main`).
    public func execute(_ job: @escaping @Sendable () -> Void) {
        async(execute: job)
    }
}

/// A delivery queue made from a closure, for engines with their own loop (`g_main_context_invoke`).
///
/// ```swift
/// let glib = ClosureDeliveryQueue { job in mainContext.invoke(job) }
/// ```
public struct ClosureDeliveryQueue: SchemeDeliveryQueue {
    let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// Creates a queue that hands each job to `schedule`, which must run them serially, in order.
    public init(_ schedule: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.schedule = schedule
    }

    /// Hands `job` to the schedule closure.
    public func execute(_ job: @escaping @Sendable () -> Void) {
        schedule(job)
    }
}
