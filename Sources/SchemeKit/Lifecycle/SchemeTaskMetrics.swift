import Synchronization

/// A snapshot of a registry's task counters.
///
/// Every task ends in exactly one of ``finished``, ``failed``, ``stopped`` or ``passed``; ``live``
/// is the number started and not yet ended.
public struct SchemeTaskMetrics: Sendable, Hashable, CustomStringConvertible {
    /// Tasks created.
    public var started: Int
    /// Tasks whose finish reached the engine.
    public var finished: Int
    /// Tasks whose failure reached the engine.
    public var failed: Int
    /// Tasks the engine stopped before a terminal event reached it.
    public var stopped: Int
    /// Tasks every handler passed on, handed back to an engine that answers them itself
    /// (``SchemeTaskSink/receivesPassed``). A registry 404 counts as ``finished``.
    public var passed: Int
    /// Writes that were dropped because the engine had stopped the task.
    public var writesDroppedAfterStop: Int
    /// Protocol violations by handlers (second head, data before head, write after finish).
    public var misuseErrors: Int

    /// Creates a snapshot, for comparing against ``SchemeRegistry/metrics`` or
    /// ``SchemeTask/metrics`` in tests. Every counter defaults to 0.
    public init(
        started: Int = 0,
        finished: Int = 0,
        failed: Int = 0,
        stopped: Int = 0,
        passed: Int = 0,
        writesDroppedAfterStop: Int = 0,
        misuseErrors: Int = 0
    ) {
        self.started = started
        self.finished = finished
        self.failed = failed
        self.stopped = stopped
        self.passed = passed
        self.writesDroppedAfterStop = writesDroppedAfterStop
        self.misuseErrors = misuseErrors
    }

    /// Tasks started and not yet finished, failed, stopped or passed.
    public var live: Int { started - finished - failed - stopped - passed }

    /// One line with every counter.
    public var description: String {
        "started=\(started) finished=\(finished) failed=\(failed) stopped=\(stopped) passed=\(passed) "
            + "live=\(live) "
            + "droppedAfterStop=\(writesDroppedAfterStop) misuse=\(misuseErrors)"
    }
}

/// The atomic counters behind ``SchemeTaskMetrics``, shared by the tasks of one registry.
final class SchemeTaskCounters: Sendable {
    let started = Atomic<Int>(0)
    let finished = Atomic<Int>(0)
    let failed = Atomic<Int>(0)
    let stopped = Atomic<Int>(0)
    let passed = Atomic<Int>(0)
    let droppedAfterStop = Atomic<Int>(0)
    let misuse = Atomic<Int>(0)

    /// An answer given without a task: started and finished at once.
    func countImmediateAnswer() {
        started.add(1, ordering: .relaxed)
        finished.add(1, ordering: .relaxed)
    }

    var snapshot: SchemeTaskMetrics {
        SchemeTaskMetrics(
            started: started.load(ordering: .relaxed),
            finished: finished.load(ordering: .relaxed),
            failed: failed.load(ordering: .relaxed),
            stopped: stopped.load(ordering: .relaxed),
            passed: passed.load(ordering: .relaxed),
            writesDroppedAfterStop: droppedAfterStop.load(ordering: .relaxed),
            misuseErrors: misuse.load(ordering: .relaxed)
        )
    }
}
