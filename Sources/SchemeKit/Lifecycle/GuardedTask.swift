import Foundation
import HTTPTypes
import Synchronization

/// The storage of one task: the state machine, the engine's sink and the lock that makes every
/// check-and-deliver atomic against ``stop()``.
///
/// `@unchecked Sendable` because its mutable state (`machine`, `handlerTask`, `parked`,
/// `answeredBy`, the per-task counters, the completion waiters) is only touched while `lock` is
/// held, and `sink` is set during initialisation and replaced once, under the lock, after the
/// handler has returned (to break a task ↔ sink reference cycle). The lock is recursive so that
/// an engine may call `stop()` from inside one of its own sink callbacks.
final class GuardedTask: @unchecked Sendable {
    /// One write on its way to the engine.
    enum Event: Sendable {
        case head(SchemeResponse)
        case body(SchemeBody)
        case finish
        case fail(any Error)
        case pass

        var kind: TaskStateMachine.Write {
            switch self {
            case .head: .head
            case .body: .body
            case .finish: .finish
            case .fail: .fail
            case .pass: .pass
            }
        }
    }

    /// How the handler's Swift task begins.
    enum Launch {
        /// A new task on the global executor.
        case newTask
        /// On the calling thread, until the handler's first suspension.
        case immediate
    }

    let request: SchemeRequest
    private(set) var sink: any SchemeTaskSink
    /// The route that answers (its handler and trace name, read once at registration), or `nil`
    /// when none does (the registry's 404). Held by reference: a task copies no handler value.
    let route: RouteTable.Route?
    /// The handler's answer when the engine asked for it already (``SchemeRegistry/answer(for:sink:)``):
    /// the task runs it instead of asking the handler again.
    private let answered: SchemeAnswer?
    /// The handler's trace name, read once at registration.
    var handlerName: String { route?.name ?? "" }
    let counters: SchemeTaskCounters
    private(set) var deliveryQueue: (any SchemeDeliveryQueue)?
    /// Whether the sink is called inline (it has no delivery queue), kept apart from
    /// ``deliveryQueue`` so the hot path tests a flag instead of copying an existential.
    private var inlineDelivery = true
    private let lock = Lock(recursive: true)
    private var machine = TaskStateMachine()
    /// The Swift task running the handler, while it runs.
    private var handlerTask: Task<Void, Never>?
    /// Writes accepted for a delivery queue and not yet delivered, by write number: a stop resumes
    /// them at once, so a queue that never drains cannot hold a handler forever.
    private var parked: [Int: CheckedContinuation<(any Error)?, Never>] = [:]
    private var nextWrite = 0
    private var answeredBy: String?
    /// How the task ended, for the per-task ``metrics``.
    private var ending = Ending.open
    private var dropped = 0
    private var misuse = 0
    /// Set once the handler has returned (or will never run); then `waiters` are resumed.
    private var completed = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// Sink calls in progress on the thread holding the lock (a sink may call ``stop()`` from
    /// inside one: the lock is recursive for that).
    private var deliveryDepth = 0
    /// What a ``stop()`` made from inside a sink call must do once the delivery has released the
    /// lock: cancel the handler's task (its cancellation handlers run user code, never under the
    /// task's lock) and resume the writers and waiters it released.
    private var deferredStop: DeferredStop?

    private struct DeferredStop {
        var running: Task<Void, Never>?
        var waiting: [CheckedContinuation<(any Error)?, Never>]
        var resumed: [CheckedContinuation<Void, Never>]

        func perform() {
            running?.cancel()
            for continuation in waiting { continuation.resume(returning: CancellationError()) }
            for waiter in resumed { waiter.resume() }
        }
    }

    private enum Ending {
        case open, finished, failed, stopped, passed
    }

    init(
        request: SchemeRequest,
        sink: any SchemeTaskSink,
        route: RouteTable.Route?,
        counters: SchemeTaskCounters,
        answered: SchemeAnswer? = nil
    ) {
        self.request = request
        self.sink = sink
        self.route = route
        self.answered = answered
        self.counters = counters
        self.deliveryQueue = sink.deliveryQueue
        self.inlineDelivery = deliveryQueue == nil
        counters.current.started.add(1, ordering: .relaxed)
    }

    /// Sets the sink made for this task, before the task is handed to anyone else.
    func attach(_ sink: any SchemeTaskSink) {
        self.sink = sink
        self.deliveryQueue = sink.deliveryQueue
        self.inlineDelivery = deliveryQueue == nil
    }

    var respondingHandler: String? {
        lock.withLock { answeredBy }
    }

    var isStopped: Bool {
        lock.withLock { machine.isStopped }
    }

    /// Whether the handler's Swift task is recorded, so that a ``stop()`` now cancels it itself.
    /// For tests, which wait for this state instead of for a time.
    var holdsHandlerTask: Bool {
        lock.withLock { handlerTask != nil }
    }

    /// This task's own counters: `started` is 1; at most one ending counter is 1.
    var metrics: SchemeTaskMetrics {
        lock.withLock {
            SchemeTaskMetrics(
                started: 1,
                finished: ending == .finished ? 1 : 0,
                failed: ending == .failed ? 1 : 0,
                stopped: ending == .stopped ? 1 : 0,
                passed: ending == .passed ? 1 : 0,
                writesDroppedAfterStop: dropped,
                misuseErrors: misuse
            )
        }
    }

    // MARK: Engine side

    func stop() {
        lock.lock()
        guard machine.stop() == .cancel else {
            lock.unlock()
            return
        }
        ending = .stopped
        counters.current.stopped.add(1, ordering: .relaxed)
        let running = handlerTask
        let waiting = parked
        parked = [:]
        // Never started: nothing will run, so the task is complete now.
        let resumed = machine.started ? [] : completeLocked()
        let stop = DeferredStop(running: running, waiting: Array(waiting.values), resumed: resumed)
        if deliveryDepth > 0 {
            // Called from inside a sink call on this thread, under the delivery's lock: the
            // delivery performs it once it has released the lock.
            deferredStop = stop
            lock.unlock()
            return
        }
        lock.unlock()
        // Outside the lock: the handler's cancellation handlers and the resumed writers run
        // user code, which must not run under the task's lock.
        stop.perform()
    }

    /// Releases the lock after a delivery, then does what a ``stop()`` from inside that delivery
    /// left to do (see ``deferredStop``).
    private func unlockAfterDelivery() {
        let stop = deferredStop
        deferredStop = nil
        lock.unlock()
        stop?.perform()
    }

    /// A handler's writing answer.
    typealias Writing = @Sendable (any SchemeResponseWriter) async throws -> SchemeHandlerOutcome

    /// Runs the handler and returns when the task is over.
    ///
    /// The handler's answer is asked here, on the calling thread. An answer known at once is
    /// delivered here too, with no Swift task and no suspension. A writing answer runs in a child
    /// task of its own (a stop never cancels the caller's task), awaited; a cancellation of the
    /// calling task stops this task.
    nonisolated(nonsending) func run() async {
        guard begin(), case .write(let writing) = answer() else { return }
        let handlerTask = spawn(.immediate, writing)
        await withTaskCancellationHandler {
            await handlerTask.value
        } onCancel: {
            self.stop()
        }
    }

    /// Starts the handler; returns at once. With ``Launch/immediate`` the answer is asked on the
    /// calling thread (and delivered there when known at once); with ``Launch/newTask`` everything
    /// happens in a new Swift task, so no handler code runs on the caller's thread.
    func launch(_ launch: Launch) {
        guard begin() else { return }
        switch launch {
        case .immediate:
            guard case .write(let writing) = answer() else { return }
            spawn(.immediate, writing)
        case .newTask:
            spawn(.newTask, nil)
        }
    }

    /// Marks the task started; `false` when it must not run: stopped first (the task is then
    /// complete), or started before (the first start's run goes on, and completes it).
    private func begin() -> Bool {
        lock.lock()
        switch machine.start() {
        case .run:
            lock.unlock()
            return true
        case .alreadyStarted:
            lock.unlock()
            return false
        case .skip:
            let resumed = completeLocked()
            lock.unlock()
            for waiter in resumed { waiter.resume() }
            return false
        }
    }

    /// Starts `writing` (or, for `nil`, the whole answer) in the handler's own Swift task.
    @discardableResult
    private func spawn(_ launch: Launch, _ writing: Writing?) -> Task<Void, Never> {
        let task: Task<Void, Never>
        switch launch {
        case .newTask:
            task = Task { await self.runHandler(writing) }
        case .immediate:
            task = Self.immediateTask { await self.runHandler(writing) }
        }
        // The handler may already have returned (it ran inline until it finished), or the engine
        // may have stopped the task while it ran inline, before the handle existed.
        lock.lock()
        let cancel = machine.isStopped && !completed
        if !completed { handlerTask = task }
        lock.unlock()
        if cancel { task.cancel() }
        return task
    }

    /// `Task.immediate` where the platform has it; a new task otherwise.
    private static func immediateTask(_ body: sending @escaping @isolated(any) () async -> Void) -> Task<Void, Never> {
        #if canImport(Darwin)
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
                return Task.immediate(operation: body)
            }
            return Task(operation: body)
        #else
            return Task.immediate(operation: body)
        #endif
    }

    /// What ``answer()`` did.
    private enum Answering {
        /// The answer was known at once and is delivered (or on its way on the delivery queue):
        /// the task is complete, or completes with that delivery.
        case delivered
        /// The answer is written over time: run it.
        case write(Writing)
    }

    /// Asks the handler for its answer (unless the engine asked already) and delivers it when it
    /// is known at once.
    private func answer() -> Answering {
        if let answered { return self.answered(answered) }
        guard let route else { return self.answered(.passed) }
        return self.answered(route.handler.answer(to: request))
    }

    /// Delivers `answer` when it is known at once; see ``answer()``.
    private func answered(_ answer: SchemeAnswer) -> Answering {
        switch answer {
        case .writing(let writing):
            return .write(writing)
        case .response(let response):
            deliverResponse(response)
            return .delivered
        case .passed:
            if sink.receivesPassed {
                deliverWhole(head: nil, body: nil, answeredBy: nil)
            } else {
                let (head, body) = SchemeResponse.plainText(.notFound, "Not Found\n")
                deliverWhole(
                    head: head, body: request.method == .head ? nil : SchemeBody(body), answeredBy: "not-found")
            }
            return .delivered
        }
    }

    /// Delivers a response known at once and completes the task: ``deliverWhole(head:body:answeredBy:)``
    /// without intermediate copies for an inline sink (the registry's hot path: one lock hold, no
    /// task, no suspension).
    private func deliverResponse(_ response: SchemeCollectedResponse) {
        let hasBody = request.method != .head && !response.body.isEmpty
        guard inlineDelivery else {
            return deliverWhole(
                head: response.head, body: hasBody ? SchemeBody(response.body) : nil,
                answeredBy: response.answeredBy ?? handlerName)
        }
        lock.lock()
        deliveryDepth += 1
        if acceptLocked(.head) {
            if answeredBy == nil { answeredBy = response.answeredBy ?? handlerName }
            if case .send = machine.deliver(.head) { sink.receive(response.head) } else { countDroppedLocked() }
        }
        if hasBody, acceptLocked(.body) {
            if case .send = machine.deliver(.body) {
                sink.receive(SchemeBody(response.body))
            } else {
                countDroppedLocked()
            }
        }
        if acceptLocked(.finish) {
            if case .sendTerminal = machine.deliver(.finish) {
                ending = .finished
                counters.current.finished.add(1, ordering: .relaxed)
                sink.finish()
            } else {
                countDroppedLocked()
            }
        }
        deliveryDepth -= 1
        _ = machine.handlerReturned(.handled)
        let resumed = completeLocked()
        unlockAfterDelivery()
        for waiter in resumed { waiter.resume() }
    }

    /// Delivers a whole answer — head, body and finish, or (with no head) the pass — and completes
    /// the task: under one hold of the lock for an inline sink, or in one job on its delivery
    /// queue. Writes a stop got to first are dropped and counted, as any write.
    private func deliverWhole(head: SchemeResponse?, body: SchemeBody?, answeredBy name: String?) {
        lock.lock()
        // What the state machine accepts, in order; each accepted write is then delivered, with
        // the engine side checked again (a stop in between drops it).
        var headAccepted = false
        var bodyAccepted = false
        var endAccepted = false
        if head != nil {
            headAccepted = acceptLocked(.head)
            bodyAccepted = body != nil && acceptLocked(.body)
            endAccepted = acceptLocked(.finish)
        } else {
            endAccepted = acceptLocked(.pass)
        }
        if let name, answeredBy == nil, headAccepted { answeredBy = name }
        let passing = head == nil
        guard let queue = deliveryQueue else {
            deliverWholeLocked(
                head: headAccepted ? head : nil, body: bodyAccepted ? body : nil, end: endAccepted, passing: passing)
            let resumed = completeLocked()
            unlockAfterDelivery()
            for waiter in resumed { waiter.resume() }
            return
        }
        // Scheduled while holding the lock, as every queued write is, so it keeps its place.
        let (deliveredHead, deliveredBody, end) = (headAccepted ? head : nil, bodyAccepted ? body : nil, endAccepted)
        queue.execute {
            self.lock.lock()
            self.deliverWholeLocked(head: deliveredHead, body: deliveredBody, end: end, passing: passing)
            let resumed = self.completeLocked()
            self.unlockAfterDelivery()
            for waiter in resumed { waiter.resume() }
        }
        lock.unlock()
    }

    /// Accepts one write of a whole answer, counting a rejected one. Caller holds `lock`.
    private func acceptLocked(_ write: TaskStateMachine.Write) -> Bool {
        switch machine.accept(write) {
        case .deliver:
            return true
        case .rejectStopped:
            countDroppedLocked()
        case .misuse:
            countMisuseLocked()
        }
        return false
    }

    /// Delivers the accepted parts of a whole answer (a head, its body, and the finish — or, with
    /// no head, the pass) and marks the handler's part done. Caller holds `lock`.
    private func deliverWholeLocked(head: SchemeResponse?, body: SchemeBody?, end: Bool, passing: Bool) {
        deliveryDepth += 1
        defer { deliveryDepth -= 1 }
        if let head {
            switch machine.deliver(.head) {
            case .send: sink.receive(head)
            default: countDroppedLocked()
            }
        }
        if let body {
            switch machine.deliver(.body) {
            case .send: sink.receive(body)
            default: countDroppedLocked()
            }
        }
        if end {
            switch machine.deliver(passing ? .pass : .finish) {
            case .sendTerminal where passing:
                ending = .passed
                counters.current.passed.add(1, ordering: .relaxed)
                sink.passed()
            case .sendTerminal:
                ending = .finished
                counters.current.finished.add(1, ordering: .relaxed)
                sink.finish()
            default:
                countDroppedLocked()
            }
        }
        _ = machine.handlerReturned(.handled)
    }

    /// Returns once the handler has returned and the task holds nothing more of it — after a
    /// finish, a failure or a stop alike — or at once when the task can no longer run.
    func waitForCompletion() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if completed {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }

    /// The handler's own Swift task: runs `writing` (or asks for the answer first, when `nil`,
    /// delivering it here if it is known at once), then completes what the handler left open.
    private func runHandler(_ writing: Writing?) async {
        let write: Writing
        if let writing {
            write = writing
        } else {
            guard case .write(let writing) = answer() else { return }
            write = writing
        }
        let outcome: TaskStateMachine.Outcome
        var thrown: (any Error)?
        do {
            let writer = GuardedResponseWriter(task: self)
            let result = try await SchemeHandlerTrace.$name.withValue(handlerName) { try await write(writer) }
            outcome = result == .handled ? .handled : .passed
        } catch {
            outcome = .threw
            thrown = error
        }

        switch end(outcome) {
        case .none:
            break
        case .finish:
            try? await self.write(.finish)
        case .fail:
            try? await self.write(.fail(thrown ?? SchemeTaskError.noResponse))
        case .notFound:
            if sink.receivesPassed {
                try? await self.write(.pass)
            } else {
                await respondNotFound()
            }
        }

        lock.lock()
        handlerTask = nil
        let resumed = completeLocked()
        lock.unlock()
        for waiter in resumed { waiter.resume() }
    }

    /// Marks the task complete and releases the engine's sink; returns the waiters to resume.
    /// Caller holds `lock`.
    private func completeLocked() -> [CheckedContinuation<Void, Never>] {
        guard !completed else { return [] }
        completed = true
        // Nothing reaches the sink any more: drop it, so a sink that holds its task (to stop it)
        // does not keep the pair alive forever.
        sink = DetachedSink()
        defer { waiters = [] }
        return waiters
    }

    private func respondNotFound() async {
        let (head, body) = SchemeResponse.plainText(.notFound, "Not Found\n")
        SchemeHandlerTrace.$name.withValue("not-found") { recordAnswer() }
        do {
            try await write(.head(head))
            if request.method != .head { try await write(.body(SchemeBody(body))) }
            try await write(.finish)
        } catch {}
    }

    private func recordAnswer() {
        lock.withLock {
            if answeredBy == nil { answeredBy = SchemeHandlerTrace.name }
        }
    }

    // MARK: Handler side

    func write(_ event: Event) async throws {
        if let deliveryQueue {
            try await write(event, through: deliveryQueue)
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
        let rejection: (any Error)?
        switch machine.accept(event.kind) {
        case .deliver:
            if case .head = event, answeredBy == nil { answeredBy = SchemeHandlerTrace.name }
            deliverLocked(event)
            rejection = nil
        case .rejectStopped:
            countDroppedLocked()
            rejection = CancellationError()
        case .misuse(let error):
            countMisuseLocked()
            rejection = error
        }
        unlockAfterDelivery()
        if let rejection { throw Self.rejected(rejection) }
    }

    /// A write the stop rejected also cancels the writing Swift task — the handler's own — once
    /// the lock is released: a handler that runs on the engine's thread until its first
    /// suspension (``Launch/immediate``) has no task handle yet when the stop comes, and must
    /// still see `Task.isCancelled`.
    private static func rejected(_ error: any Error) -> any Error {
        if error is CancellationError { withUnsafeCurrentTask { $0?.cancel() } }
        return error
    }

    /// Queued sinks: accept under the lock and schedule the delivery *while still holding it*,
    /// so concurrent writers reach the queue in the order the state machine accepted them (a
    /// finish can never overtake a body chunk accepted before it). The delivery re-checks the
    /// engine side, so a stop that lands between accept and delivery drops the write; the stop
    /// also resumes the waiting writer, so it never waits on a queue that stopped draining.
    private func write(_ event: Event, through queue: any SchemeDeliveryQueue) async throws {
        let rejection: (any Error)? = await withCheckedContinuation { continuation in
            lock.lock()
            defer { lock.unlock() }
            switch machine.accept(event.kind) {
            case .deliver:
                if case .head = event, answeredBy == nil { answeredBy = SchemeHandlerTrace.name }
                let number = nextWrite
                nextWrite += 1
                parked[number] = continuation
                queue.execute {
                    self.lock.lock()
                    // Taken before delivering: a stop from inside this delivery must not resume
                    // the write it is delivering.
                    let waiting = self.parked.removeValue(forKey: number)
                    self.deliverLocked(event)
                    self.unlockAfterDelivery()
                    waiting?.resume(returning: nil)
                }
            case .rejectStopped:
                countDroppedLocked()
                continuation.resume(returning: CancellationError())
            case .misuse(let error):
                countMisuseLocked()
                continuation.resume(returning: error)
            }
        }
        if let rejection { throw Self.rejected(rejection) }
    }

    private func countDroppedLocked() {
        dropped += 1
        counters.current.droppedAfterStop.add(1, ordering: .relaxed)
    }

    private func countMisuseLocked() {
        misuse += 1
        counters.current.misuse.add(1, ordering: .relaxed)
    }

    private func end(_ outcome: TaskStateMachine.Outcome) -> TaskStateMachine.CompletionAction {
        lock.withLock { machine.handlerReturned(outcome) }
    }

    /// Delivers an accepted write to the engine, unless it stopped meanwhile. Caller holds `lock`.
    private func deliverLocked(_ event: Event) {
        deliveryDepth += 1
        defer { deliveryDepth -= 1 }
        switch machine.deliver(event.kind) {
        case .drop:
            countDroppedLocked()
        case .send:
            switch event {
            case .head(let response): sink.receive(response)
            case .body(let body): sink.receive(body)
            case .finish, .fail, .pass: break
            }
        case .sendTerminal:
            switch event {
            case .fail(let error):
                ending = .failed
                counters.current.failed.add(1, ordering: .relaxed)
                sink.fail(error)
            case .pass:
                ending = .passed
                counters.current.passed.add(1, ordering: .relaxed)
                sink.passed()
            default:
                ending = .finished
                counters.current.finished.add(1, ordering: .relaxed)
                sink.finish()
            }
        }
    }
}

/// The writer handed to handlers: a thin facade over a ``GuardedTask``.
struct GuardedResponseWriter: SchemeResponseWriter {
    let task: GuardedTask

    // Inline sinks take the synchronous path directly: one async frame fewer per write on the
    // hot path. Queued sinks go through `GuardedTask.write(_:)`, which awaits the delivery.

    func writeHead(_ response: SchemeResponse) async throws {
        if task.deliveryQueue == nil {
            try task.writeInline(.head(response))
        } else {
            try await task.write(.head(response))
        }
    }

    func write(_ body: SchemeBody) async throws {
        guard !body.isEmpty else {
            if task.isStopped { throw CancellationError() }
            return
        }
        if task.deliveryQueue == nil {
            try task.writeInline(.body(body))
            await task.sink.waitForCapacity()
        } else {
            try await task.write(.body(body))
        }
    }

    func makeBody<Failure: Error>(
        count: Int, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) -> SchemeBody {
        try (task.sink.bodyAllocator ?? MallocBodyAllocator()).makeBody(count: count, fill: fill)
    }

    var acceptsFileRegions: Bool { task.sink.acceptsFileRegions }

    func finish() async throws {
        if task.deliveryQueue == nil {
            try task.writeInline(.finish)
        } else {
            try await task.write(.finish)
        }
    }

    func fail(_ error: any Error) async throws {
        if task.deliveryQueue == nil {
            try task.writeInline(.fail(error))
        } else {
            try await task.write(.fail(error))
        }
    }
}
