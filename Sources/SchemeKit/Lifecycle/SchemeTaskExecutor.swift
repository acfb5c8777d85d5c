public import Dispatch

/// A serial place where an engine wants its sink called: a main queue, a GLib main context.
///
/// ## Implementation requirements
/// Jobs run one at a time in the order they were submitted. ``execute(_:)`` may be called from
/// any thread and must not run the job synchronously on the caller's stack unless the caller is
/// already on the executor's thread.
public protocol SchemeTaskExecutor: Sendable {
    /// Schedules `job` to run on the executor.
    func execute(_ job: @escaping @Sendable () -> Void)
}

extension DispatchQueue: SchemeTaskExecutor {
    /// Runs the job asynchronously on the queue. Use a serial queue (such as `.main`).
    public func execute(_ job: @escaping @Sendable () -> Void) {
        async(execute: job)
    }
}

/// An executor made from a closure, for engines with their own loop (`g_main_context_invoke`).
///
/// ```swift
/// let glib = ClosureExecutor { job in mainContext.invoke(job) }
/// ```
public struct ClosureExecutor: SchemeTaskExecutor {
    let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// Creates an executor that hands each job to `schedule`, which must run them serially, in order.
    public init(_ schedule: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.schedule = schedule
    }

    /// Hands `job` to the schedule closure.
    public func execute(_ job: @escaping @Sendable () -> Void) {
        schedule(job)
    }
}
