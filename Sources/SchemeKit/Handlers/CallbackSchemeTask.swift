public import Foundation
import Synchronization

/// The task a ``CallbackSchemeHandler`` answers, with `WKURLSchemeTask`'s verbs.
///
/// Every method may be called from any thread and never traps. Calls are queued in order and
/// delivered through the guarded lifecycle; after the task is stopped or completed they are
/// dropped.
///
/// ## Back-pressure
/// Body bytes queue up to ``bufferLimit`` bytes. Past it, ``didReceive(_:)-(Data)`` *blocks the
/// calling thread* until the engine has taken the queue down to a quarter of the limit, or the
/// task is stopped (the call then returns and its bytes are dropped, as after any stop). That is
/// what a `WKURLSchemeHandler` port expects: its calls are synchronous, they never fail, and the
/// producer — a dispatch queue or thread reading a file or a socket — simply runs at the engine's
/// pace, with bounded memory.
///
/// Two exceptions never block, because blocking there could stall the very work that drains the
/// queue:
/// - calls made from inside a Swift task (including ``CallbackSchemeHandler/start(_:)``, which the
///   adapter calls from its own task) are queued whatever the size — from async code, use
///   ``write(_:)``, which suspends instead of blocking;
/// - do not call it on the thread that delivers to your engine (an engine that delivers on its
///   main thread, say) while the queue is full: the delivery could never run.
public final class CallbackSchemeTask: Sendable, Hashable {
    enum Event: Sendable {
        case head(SchemeResponse)
        case body(Data)
        case finish
        case fail(any Error)
    }

    private struct Queue {
        var events: [Event] = []
        var first = 0
        var bytes = 0
        /// A terminal call or a stop came: later calls are dropped.
        var ended = false
        var consumer: CheckedContinuation<Event?, Never>?
        /// ``write(_:)`` calls waiting for room, resumed with `false` to check again.
        var writers: [CheckedContinuation<Bool, Never>] = []
    }

    /// The request to answer.
    public let request: SchemeRequest
    /// The most body bytes queued before ``didReceive(_:)-(Data)`` blocks and ``write(_:)``
    /// suspends. Default: 1 MiB.
    public let bufferLimit: Int
    /// Guards `queue`; producers that must wait for room wait on it. A condition variable (not
    /// SchemeKit's ``Locked``) because a blocked producer must sleep until the engine drains the
    /// queue; `NSCondition` is a pthread mutex and condition, which the thread sanitizer sees.
    private let condition = NSCondition()
    nonisolated(unsafe) private var queue = Queue()
    /// 0: not started, 1: started, 2: stopped.
    private let phase = Atomic<UInt8>(0)

    init(request: SchemeRequest, bufferLimit: Int = 1 << 20) {
        self.request = request
        self.bufferLimit = max(1, bufferLimit)
    }

    /// Whether the engine stopped this task; calls after that are dropped.
    public var isStopped: Bool { phase.load(ordering: .acquiring) == 2 }

    /// Body bytes queued and not yet taken by the engine.
    public var queuedBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.bytes
    }

    /// Sends the response head.
    public func didReceive(_ response: SchemeResponse) { enqueue(.head(response), bytes: 0, mayBlock: false) }

    /// Sends body bytes; blocks the calling thread while ``bufferLimit`` bytes are queued (see
    /// the type's "Back-pressure" notes), unless called from a Swift task.
    public func didReceive(_ data: Data) {
        enqueue(.body(data), bytes: data.count, mayBlock: withUnsafeCurrentTask { $0 == nil })
    }

    /// Sends body bytes from async code: suspends (never blocks) while ``bufferLimit`` bytes are
    /// queued; returns at once, dropping the bytes, once the task was stopped or completed.
    public func write(_ data: Data) async {
        while true {
            let admitted: Bool = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                condition.lock()
                if queue.ended || queue.bytes < bufferLimit {
                    condition.unlock()
                    continuation.resume(returning: true)
                    return
                }
                // Woken by the consumer (or a stop) with `false`: check again.
                queue.writers.append(continuation)
                condition.unlock()
            }
            if admitted { break }
        }
        enqueue(.body(data), bytes: data.count, mayBlock: false)
    }

    /// Completes the response.
    public func didFinish() { enqueue(.finish, bytes: 0, mayBlock: false, terminal: true) }

    /// Fails the task.
    public func didFailWithError(_ error: any Error) {
        enqueue(.fail(error), bytes: 0, mayBlock: false, terminal: true)
    }

    private func enqueue(_ event: Event, bytes: Int, mayBlock: Bool, terminal: Bool = false) {
        condition.lock()
        if mayBlock {
            while !queue.ended && queue.bytes >= bufferLimit { condition.wait() }
        }
        guard !queue.ended else {
            condition.unlock()
            return
        }
        if terminal { queue.ended = true }
        if let consumer = queue.consumer {
            queue.consumer = nil
            condition.unlock()
            consumer.resume(returning: event)
            return
        }
        queue.events.append(event)
        queue.bytes += bytes
        condition.unlock()
    }

    /// The next call to relay, in order; `nil` after the last one or once stopped.
    func nextEvent() async -> Event? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Event?, Never>) in
            condition.lock()
            guard queue.first < queue.events.count else {
                let ended = queue.ended
                if !ended { queue.consumer = continuation }
                condition.unlock()
                if ended { continuation.resume(returning: nil) }
                return
            }
            let event = queue.events[queue.first]
            queue.events[queue.first] = .finish
            queue.first += 1
            if queue.first == queue.events.count || queue.first >= 64 {
                queue.events.removeFirst(queue.first)
                queue.first = 0
            }
            var writers: [CheckedContinuation<Bool, Never>] = []
            if case .body(let data) = event {
                queue.bytes -= data.count
                if queue.bytes <= bufferLimit / 4 {
                    condition.broadcast()
                    swap(&writers, &queue.writers)
                }
            }
            condition.unlock()
            for writer in writers { writer.resume(returning: false) }
            continuation.resume(returning: event)
        }
    }

    /// Moves to "started"; `false` when the task was stopped first (then the handler must not start).
    func markStarted() -> Bool {
        phase.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
    }

    /// Moves to "stopped", drops what is queued and releases blocked producers; `true` when the
    /// handler had been started (and so must be told to stop), `false` when it never started or
    /// was already stopped.
    func markStopped() -> Bool {
        let previous = phase.exchange(2, ordering: .acquiringAndReleasing)
        condition.lock()
        queue.ended = true
        queue.events = []
        queue.first = 0
        queue.bytes = 0
        let consumer = queue.consumer
        queue.consumer = nil
        let writers = queue.writers
        queue.writers = []
        condition.broadcast()
        condition.unlock()
        consumer?.resume(returning: nil)
        for writer in writers { writer.resume(returning: false) }
        return previous == 1
    }

    /// Identity.
    public static func == (lhs: CallbackSchemeTask, rhs: CallbackSchemeTask) -> Bool { lhs === rhs }

    /// Identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
