import Foundation
import HTTPTypes
import Synchronization

/// The storage of one task: the state machine, the engine's sink and the lock that makes every
/// check-and-deliver atomic against ``stop()``.
///
/// `@unchecked Sendable` because its mutable state (`machine`, `currentTask`, `answeredBy`, the
/// per-task counters) is only
/// touched while `lock` is held. The lock is recursive so that an engine may call `stop()` from
/// inside one of its own sink callbacks.
final class GuardedTask: @unchecked Sendable {
    /// One write on its way to the engine.
    enum Event: Sendable {
        case head(SchemeResponse)
        case body(Data)
        case finish
        case fail(any Error)

        var kind: TaskStateMachine.Write {
            switch self {
            case .head: .head
            case .body: .body
            case .finish: .finish
            case .fail: .fail
            }
        }
    }

    let request: SchemeRequest
    let sink: any SchemeTaskSink
    let handler: (any SchemeHandler)?
    /// The handler's trace name, read once at registration.
    let handlerName: String
    let counters: SchemeTaskCounters
    let executor: (any SchemeTaskExecutor)?
    private let lock = TaskLock()
    private var machine = TaskStateMachine()
    private var currentTask: UnsafeCurrentTask?
    private var answeredBy: String?
    /// How the task ended, for the per-task ``metrics``.
    private var ending = Ending.open
    private var dropped = 0
    private var misuse = 0

    private enum Ending {
        case open, finished, failed, stopped
    }

    init(
        request: SchemeRequest,
        sink: any SchemeTaskSink,
        handler: (any SchemeHandler)?,
        handlerName: String,
        counters: SchemeTaskCounters
    ) {
        self.request = request
        self.sink = sink
        self.handler = handler
        self.handlerName = handlerName
        self.counters = counters
        self.executor = sink.executor
        counters.started.add(1, ordering: .relaxed)
    }

    deinit {
        lock.destroy()
    }

    var respondingHandler: String? {
        lock.lock()
        defer { lock.unlock() }
        return answeredBy
    }

    var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return machine.isStopped
    }

    /// This task's own counters: `started` is 1; at most one of finished, failed, stopped is 1.
    var metrics: SchemeTaskMetrics {
        lock.lock()
        defer { lock.unlock() }
        return SchemeTaskMetrics(
            started: 1,
            finished: ending == .finished ? 1 : 0,
            failed: ending == .failed ? 1 : 0,
            stopped: ending == .stopped ? 1 : 0,
            writesDroppedAfterStop: dropped,
            misuseErrors: misuse
        )
    }

    // MARK: Engine side

    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard machine.stop() == .cancel else { return }
        ending = .stopped
        counters.stopped.add(1, ordering: .relaxed)
        // Cancelled under the lock: `run()` clears `currentTask` under the same lock before it
        // returns, so the task is alive here.
        currentTask?.cancel()
    }

    func run() async {
        guard begin() else { return }

        let outcome: TaskStateMachine.Outcome
        var thrown: (any Error)?
        if let handler {
            do {
                let writer = GuardedResponseWriter(task: self)
                let result = try await SchemeHandlerTrace.$name.withValue(handlerName) {
                    try await handler.handle(request, writer: writer)
                }
                outcome = result == .handled ? .handled : .passed
            } catch {
                outcome = .threw
                thrown = error
            }
        } else {
            outcome = .passed
        }

        let completion = end(outcome)

        switch completion {
        case .none:
            return
        case .finish:
            try? await write(.finish)
        case .fail:
            try? await write(.fail(thrown ?? SchemeTaskError.noResponse))
        case .notFound:
            await respondNotFound()
        }
    }

    private func respondNotFound() async {
        let (head, body) = SchemeResponse.plainText(.notFound, "Not Found\n")
        SchemeHandlerTrace.$name.withValue("not-found") { recordAnswer() }
        do {
            try await write(.head(head))
            if request.method != .head { try await write(.body(body)) }
            try await write(.finish)
        } catch {}
    }

    private func recordAnswer() {
        lock.lock()
        if answeredBy == nil { answeredBy = SchemeHandlerTrace.name }
        lock.unlock()
    }

    // MARK: Handler side

    func write(_ event: Event) async throws {
        if let executor {
            try await write(event, through: executor)
        } else {
            try writeInline(event)
        }
        if case .body = event {
            await sink.waitForCapacity()
        }
    }

    /// Inline sinks: check and deliver under one lock hold, so a concurrent `stop()` is either
    /// before (the write is dropped) or after (the write reached the engine) — never in between.
    func writeInline(_ event: Event) throws {
        lock.lock()
        defer { lock.unlock() }
        switch machine.accept(event.kind) {
        case .deliver:
            if case .head = event, answeredBy == nil { answeredBy = SchemeHandlerTrace.name }
            deliverLocked(event)
        case .rejectStopped:
            countDroppedLocked()
            throw CancellationError()
        case .misuse(let error):
            countMisuseLocked()
            throw error
        }
    }

    /// Executor sinks: accept under the lock and schedule the delivery *while still holding it*,
    /// so concurrent writers reach the executor in the order the state machine accepted them
    /// (a finish can never overtake a body chunk accepted before it). The delivery re-checks the
    /// engine side, so a stop that lands between accept and delivery drops the write.
    private func write(_ event: Event, through executor: any SchemeTaskExecutor) async throws {
        let rejection: (any Error)? = await withCheckedContinuation { continuation in
            lock.lock()
            defer { lock.unlock() }
            switch machine.accept(event.kind) {
            case .deliver:
                if case .head = event, answeredBy == nil { answeredBy = SchemeHandlerTrace.name }
                executor.execute {
                    self.lock.lock()
                    self.deliverLocked(event)
                    self.lock.unlock()
                    continuation.resume(returning: nil)
                }
            case .rejectStopped:
                countDroppedLocked()
                continuation.resume(returning: CancellationError())
            case .misuse(let error):
                countMisuseLocked()
                continuation.resume(returning: error)
            }
        }
        if let rejection { throw rejection }
    }

    private func countDroppedLocked() {
        dropped += 1
        counters.droppedAfterStop.add(1, ordering: .relaxed)
    }

    private func countMisuseLocked() {
        misuse += 1
        counters.misuse.add(1, ordering: .relaxed)
    }

    private func begin() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard machine.start() == .run else { return false }
        withUnsafeCurrentTask { currentTask = $0 }
        return true
    }

    private func end(_ outcome: TaskStateMachine.Outcome) -> TaskStateMachine.CompletionAction {
        lock.lock()
        defer { lock.unlock() }
        currentTask = nil
        return machine.handlerReturned(outcome)
    }

    /// Delivers an accepted write to the engine, unless it stopped meanwhile. Caller holds `lock`.
    private func deliverLocked(_ event: Event) {
        switch machine.deliver(event.kind) {
        case .drop:
            countDroppedLocked()
        case .send:
            switch event {
            case .head(let response): sink.receive(response)
            case .body(let data): sink.receive(data)
            case .finish, .fail: break
            }
        case .sendTerminal:
            if case .fail(let error) = event {
                ending = .failed
                counters.failed.add(1, ordering: .relaxed)
                sink.fail(error)
            } else {
                ending = .finished
                counters.finished.add(1, ordering: .relaxed)
                sink.finish()
            }
        }
    }
}

/// The writer handed to handlers: a thin facade over a ``GuardedTask``.
struct GuardedResponseWriter: SchemeResponseWriter {
    let task: GuardedTask

    // Inline sinks take the synchronous path directly: one async frame fewer per write on the
    // hot path. Executor sinks go through `GuardedTask.write(_:)`, which awaits the delivery.

    func writeHead(_ response: SchemeResponse) async throws {
        if task.executor == nil {
            try task.writeInline(.head(response))
        } else {
            try await task.write(.head(response))
        }
    }

    func write(_ data: Data) async throws {
        guard !data.isEmpty else {
            if task.isStopped { throw CancellationError() }
            return
        }
        if task.executor == nil {
            try task.writeInline(.body(data))
            await task.sink.waitForCapacity()
        } else {
            try await task.write(.body(data))
        }
    }

    func makeBody<Failure: Error>(
        count: Int, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) -> Data {
        try (task.sink.bodyAllocator ?? MallocBodyAllocator()).makeBody(count: count, fill: fill)
    }

    func finish() async throws {
        if task.executor == nil {
            try task.writeInline(.finish)
        } else {
            try await task.write(.finish)
        }
    }

    func fail(_ error: any Error) async throws {
        if task.executor == nil {
            try task.writeInline(.fail(error))
        } else {
            try await task.write(.fail(error))
        }
    }
}
