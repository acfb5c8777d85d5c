import Foundation
public import SchemeKit
import Synchronization

/// A lightweight `SchemeTaskSink` that counts what it receives and detects protocol violations
/// with a few atomics: the sink for stress tests that run hundreds of thousands of tasks.
///
/// Unlike ``RecordingSink`` it keeps no events and takes no lock. It flags the same violations:
/// any call after ``markStopped()`` or after a terminal event, data before the head, a second
/// head, an empty chunk. One sink per task.
///
/// ```swift
/// let sink = CountingSink()
/// let task = registry.task(for: request, sink: sink)
/// task.start()
/// task.stop()
/// if task.isStopped { sink.markStopped() }
/// // … once the task has ended:
/// #expect(sink.violations == 0)
/// #expect(sink.terminalCount == (task.isStopped ? 0 : 1))
/// ```
public final class CountingSink: SchemeTaskSink {
    private static let headSeen: UInt8 = 1
    private static let terminalSeen: UInt8 = 2
    private static let stopSeen: UInt8 = 4

    private let flags = Atomic<UInt8>(0)
    private let headCount = Atomic<Int>(0)
    private let byteCount = Atomic<Int>(0)
    private let finishCount = Atomic<Int>(0)
    private let failCount = Atomic<Int>(0)
    private let violationCount = Atomic<Int>(0)
    private let afterStopCount = Atomic<Int>(0)

    /// Where the sink wants its calls; `nil` (inline) by default.
    public let deliveryQueue: (any SchemeDeliveryQueue)?

    /// Creates a sink.
    ///
    /// - Parameter deliveryQueue: Where the guarded task must call the sink. Default: inline.
    public init(deliveryQueue: (any SchemeDeliveryQueue)? = nil) {
        self.deliveryQueue = deliveryQueue
    }

    /// Counts the head.
    public func receive(_ response: SchemeResponse) {
        let before = check()
        if before & Self.headSeen != 0 { violation() }
        flags.bitwiseOr(Self.headSeen, ordering: .acquiringAndReleasing)
        headCount.add(1, ordering: .relaxed)
    }

    /// Counts the bytes.
    public func receive(_ body: SchemeBody) {
        let before = check()
        if before & Self.headSeen == 0 || body.isEmpty { violation() }
        byteCount.add(body.count, ordering: .relaxed)
    }

    /// Counts the finish.
    public func finish() {
        let before = check()
        if before & Self.headSeen == 0 { violation() }
        flags.bitwiseOr(Self.terminalSeen, ordering: .acquiringAndReleasing)
        finishCount.add(1, ordering: .relaxed)
    }

    /// Counts the failure.
    public func fail(_ error: any Error) {
        _ = check()
        flags.bitwiseOr(Self.terminalSeen, ordering: .acquiringAndReleasing)
        failCount.add(1, ordering: .relaxed)
    }

    /// Marks the task stopped by the engine: any call after this is a violation. Call it after
    /// `SchemeTask/stop()` returned, when `SchemeTask/isStopped` is `true`.
    public func markStopped() {
        flags.bitwiseOr(Self.stopSeen, ordering: .acquiringAndReleasing)
    }

    /// Flags calls after a stop or a terminal event; returns the flags before the call.
    private func check() -> UInt8 {
        let before = flags.load(ordering: .acquiring)
        if before & Self.stopSeen != 0 {
            afterStopCount.add(1, ordering: .relaxed)
            violation()
        }
        if before & Self.terminalSeen != 0 { violation() }
        return before
    }

    private func violation() {
        violationCount.add(1, ordering: .relaxed)
    }

    /// Heads received (1 for a task that answered).
    public var heads: Int { headCount.load(ordering: .acquiring) }
    /// Body bytes received.
    public var bytes: Int { byteCount.load(ordering: .acquiring) }
    /// Finishes received.
    public var finishes: Int { finishCount.load(ordering: .acquiring) }
    /// Failures received.
    public var failures: Int { failCount.load(ordering: .acquiring) }
    /// Terminal calls received: finishes plus failures.
    public var terminalCount: Int { finishes + failures }
    /// Calls that arrived after ``markStopped()``.
    public var callsAfterStop: Int { afterStopCount.load(ordering: .acquiring) }
    /// Protocol violations of every kind; 0 for a correct task.
    public var violations: Int { violationCount.load(ordering: .acquiring) }
    /// Whether ``markStopped()`` was called.
    public var isStopped: Bool { flags.load(ordering: .acquiring) & Self.stopSeen != 0 }
}
