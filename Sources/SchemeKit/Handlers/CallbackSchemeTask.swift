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
/// ``CallbackHandlerAdapter`` calls ``CallbackSchemeHandler/start(_:)`` on a dispatch queue, never
/// on Swift's cooperative pool, so a ported handler that answers synchronously inside `start` is
/// paced the same way.
///
/// A call made from inside a Swift task never blocks (a blocked cooperative thread could stall
/// the very work that drains the queue): from async code, use ``write(_:)``, which suspends
/// instead. A ``didReceive(_:)-(Data)`` from a task still queues past ``bufferLimit``, up to
/// 16 × ``bufferLimit``; past that the task fails with ``Overflow`` (naming ``write(_:)``) and later
/// calls are dropped, so memory stays bounded whoever calls. Do not call it on the thread that
/// delivers to your engine (an engine that delivers on its main thread, say) while the queue is
/// full: the delivery could never run.
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
        /// Threads blocked in ``didReceive(_:)-(Data)`` until the queue has room.
        var blockedProducers = 0
    }

    /// The error a task fails with when async code queued more than 16 × ``bufferLimit`` body bytes
    /// through ``didReceive(_:)-(Data)``, which cannot wait for room there.
    public struct Overflow: Error, CustomStringConvertible, Sendable {
        /// The bound that was passed.
        public let limit: Int

        /// Names the limit and the call to use instead.
        public var description: String {
            "CallbackSchemeTask: more than \(limit) body bytes queued from async code; "
                + "call write(_:) there, which waits for room"
        }
    }

    /// The request to answer.
    public let request: SchemeRequest
    /// The most body bytes queued before ``didReceive(_:)-(Data)`` blocks and ``write(_:)``
    /// suspends. Default: 1 MiB.
    public let bufferLimit: Int
    /// The most body bytes queued by calls that cannot block (from a Swift task) before the task
    /// fails with ``Overflow``: 16 × ``bufferLimit``.
    package var overflowLimit: Int { bufferLimit.multipliedReportingOverflow(by: 16).partialValue }
    /// The queue; a producer that must wait for room sleeps on its condition until the engine
    /// drains it (SchemeKit's one condition primitive, which the thread sanitizer sees).
    private let queue = ConditionLock(Queue())
    /// 0: not started, 1: started, 2: stopped.
    private let phase = Atomic<UInt8>(0)

    init(request: SchemeRequest, bufferLimit: Int = 1 << 20) {
        self.request = request
        self.bufferLimit = max(1, bufferLimit)
    }

    /// Whether the engine stopped this task; calls after that are dropped.
    public var isStopped: Bool { phase.load(ordering: .acquiring) == 2 }

    /// Body bytes queued and not yet taken by the engine.
    package var queuedBytes: Int { queue.withLock { $0.bytes } }

    /// Threads blocked right now in ``didReceive(_:)-(Data)`` because ``bufferLimit`` bytes are
    /// queued: counted from the moment a producer found no room until it is let through (room, a
    /// stop or a terminal call). For tests, which wait for this state instead of for a time.
    package var blockedProducers: Int { queue.withLock { $0.blockedProducers } }

    /// ``write(_:)`` calls suspended right now because ``bufferLimit`` bytes are queued. For tests,
    /// which wait for this state instead of for a time.
    package var suspendedWriters: Int { queue.withLock { $0.writers.count } }

    /// Sends the response head.
    public func didReceive(_ response: SchemeResponse) { enqueue(.head(response), bytes: 0, producer: .admitted) }

    /// Sends body bytes; blocks the calling thread while ``bufferLimit`` bytes are queued (see
    /// the type's "Back-pressure" notes), unless called from a Swift task.
    public func didReceive(_ data: Data) {
        let blocking = withUnsafeCurrentTask { $0 == nil }
        enqueue(.body(data), bytes: data.count, producer: blocking ? .blocking : .bounded)
    }

    /// Sends body bytes from async code: suspends (never blocks) while ``bufferLimit`` bytes are
    /// queued; returns at once, dropping the bytes, once the task was stopped or completed.
    public func write(_ data: Data) async {
        while true {
            let admitted: Bool = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let room = queue.withLock { queue -> Bool in
                    if queue.ended || queue.bytes < bufferLimit { return true }
                    // Woken by the consumer (or a stop) with `false`: check again.
                    queue.writers.append(continuation)
                    return false
                }
                if room { continuation.resume(returning: true) }
            }
            if admitted { break }
        }
        enqueue(.body(data), bytes: data.count, producer: .admitted)
    }

    /// Completes the response.
    public func didFinish() { enqueue(.finish, bytes: 0, producer: .admitted, terminal: true) }

    /// Fails the task.
    public func didFailWithError(_ error: any Error) {
        enqueue(.fail(error), bytes: 0, producer: .admitted, terminal: true)
    }

    /// How a call waits for room.
    private enum Producer {
        /// Never waits: a head, a terminal call, or bytes ``write(_:)`` already found room for.
        case admitted
        /// A thread outside Swift's pool: sleeps until the queue has room.
        case blocking
        /// A Swift task calling ``didReceive(_:)-(Data)``: cannot wait; fails past 16 × ``bufferLimit``.
        case bounded
    }

    private func enqueue(_ event: Event, bytes: Int, producer: Producer, terminal: Bool = false) {
        let limit = bufferLimit
        let overflow = overflowLimit
        let consumer: CheckedContinuation<Event?, Never>?
        var delivered = event
        if producer == .blocking {
            var blocked = false
            consumer =
                queue.wait { queue -> CheckedContinuation<Event?, Never>?? in
                    guard queue.ended || queue.bytes < limit else {
                        if !blocked { queue.blockedProducers += 1 }
                        blocked = true
                        return nil
                    }
                    if blocked { queue.blockedProducers -= 1 }
                    return .some(
                        Self.append(event, bytes: bytes, terminal: terminal, to: &queue, delivered: &delivered))
                } ?? nil
        } else {
            consumer = queue.withLock { queue in
                if producer == .bounded, !queue.ended, queue.bytes + bytes > overflow {
                    // A producer that cannot wait went past the hard bound: fail instead of growing.
                    return Self.append(
                        .fail(Overflow(limit: overflow)), bytes: 0, terminal: true, to: &queue, delivered: &delivered)
                }
                return Self.append(event, bytes: bytes, terminal: terminal, to: &queue, delivered: &delivered)
            }
        }
        consumer?.resume(returning: delivered)
    }

    /// Queues `event` (or hands it to a waiting consumer, returned to be resumed outside the lock
    /// with `delivered`); drops it once the queue ended.
    private static func append(
        _ event: Event, bytes: Int, terminal: Bool, to queue: inout Queue, delivered: inout Event
    ) -> CheckedContinuation<Event?, Never>? {
        guard !queue.ended else { return nil }
        if terminal { queue.ended = true }
        delivered = event
        if let consumer = queue.consumer {
            queue.consumer = nil
            return consumer
        }
        queue.events.append(event)
        queue.bytes += bytes
        return nil
    }

    /// The next call to relay, in order; `nil` after the last one or once stopped.
    func nextEvent() async -> Event? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Event?, Never>) in
            let limit = bufferLimit
            let (event, ended, writers) = queue.withLock {
                queue -> (Event?, Bool, [CheckedContinuation<Bool, Never>]) in
                guard queue.first < queue.events.count else {
                    if !queue.ended { queue.consumer = continuation }
                    return (nil, queue.ended, [])
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
                    // Blocked producers are woken by the lock's broadcast; suspended ones here.
                    if queue.bytes <= limit / 4 { swap(&writers, &queue.writers) }
                }
                return (event, false, writers)
            }
            for writer in writers { writer.resume(returning: false) }
            if let event {
                continuation.resume(returning: event)
            } else if ended {
                continuation.resume(returning: nil)
            }
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
        let (consumer, writers) = queue.withLock { queue in
            queue.ended = true
            queue.events = []
            queue.first = 0
            queue.bytes = 0
            defer {
                queue.consumer = nil
                queue.writers = []
            }
            return (queue.consumer, queue.writers)
        }
        consumer?.resume(returning: nil)
        for writer in writers { writer.resume(returning: false) }
        return previous == 1
    }

    /// Identity.
    public static func == (lhs: CallbackSchemeTask, rhs: CallbackSchemeTask) -> Bool { lhs === rhs }

    /// Identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
