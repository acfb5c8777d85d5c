import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Android)
    import Android
#endif

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
    package init(
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
///
/// Sharded: every core of a server answers requests, and one set of counters on one cache line
/// would bounce between them on every request. A thread counts into the shard its id picks (16
/// shards, each on cache lines of its own); a snapshot sums them. Counts are exact; a snapshot
/// taken while tasks run is a moment's view, as before.
final class SchemeTaskCounters: Sendable {
    /// One set of counters, padded past a cache line so neighbours never share one.
    final class Shard: Sendable {
        let started = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        let failed = Atomic<Int>(0)
        let stopped = Atomic<Int>(0)
        let passed = Atomic<Int>(0)
        let droppedAfterStop = Atomic<Int>(0)
        let misuse = Atomic<Int>(0)
        // 7 counters and the object header are 72 bytes: 64 more keep the next shard off this line.
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    }

    private static let shardCount = 16
    private let shards: [Shard] = (0..<SchemeTaskCounters.shardCount).map { _ in Shard() }

    /// The calling thread's shard.
    var current: Shard {
        #if canImport(Darwin)
            let thread = UInt(bitPattern: pthread_self())
        #else
            let thread = UInt(pthread_self())
        #endif
        // Thread ids are addresses far apart: mix the bits that differ.
        return shards[Int((thread >> 12 ^ thread >> 21) & UInt(Self.shardCount - 1))]
    }

    /// An answer given without a task: started and finished at once.
    func countImmediateAnswer() {
        let shard = current
        shard.started.add(1, ordering: .relaxed)
        shard.finished.add(1, ordering: .relaxed)
    }

    var snapshot: SchemeTaskMetrics {
        var metrics = SchemeTaskMetrics()
        for shard in shards {
            metrics.started += shard.started.load(ordering: .relaxed)
            metrics.finished += shard.finished.load(ordering: .relaxed)
            metrics.failed += shard.failed.load(ordering: .relaxed)
            metrics.stopped += shard.stopped.load(ordering: .relaxed)
            metrics.passed += shard.passed.load(ordering: .relaxed)
            metrics.writesDroppedAfterStop += shard.droppedAfterStop.load(ordering: .relaxed)
            metrics.misuseErrors += shard.misuse.load(ordering: .relaxed)
        }
        return metrics
    }
}
