import Foundation
public import SchemeKit
import Synchronization

/// Drives handlers the way a web engine does, without a web view: it starts a task through a
/// `SchemeRegistry`, records everything the task delivers, and stops it at a chosen
/// ``StopPoint``.
///
/// In the shape of HummingbirdTesting's `app.test(…)` and swift-nio's `EmbeddedChannel`: each
/// ``run(_:stoppingAt:)`` returns a ``ScriptedTaskResult`` holding the ``RecordingSink`` (every
/// event with its timestamp, and any protocol violation), the task's own metrics and the name of
/// the handler that answered. It has no dependency on a test framework, so it works from Swift
/// Testing and XCTest alike.
///
/// ```swift
/// @Test func stoppingMidBodyDropsTheRest() async throws {
///     let engine = try ScriptedEngine(serving: StaticHandler(Data(count: 4096), chunkSize: 1024))
///     let result = try await engine.run("app://localhost/file.bin", stoppingAt: .afterBytes(1024))
///     #expect(result.body.count == 1024)
///     #expect(result.recording.terminalCount == 0)
///     #expect(result.metrics.stopped == 1)
///     #expect(result.violations.isEmpty)
/// }
/// ```
///
/// Stops are exact, not timed: the engine calls `SchemeTask/stop()` from inside the delivery it
/// waits for, as WebKit does when it handles a response on its main thread. Every run is bounded
/// by `timeout`: when it elapses the engine stops the task (as a view would give up) and the
/// result says ``ScriptedTaskResult/timedOut``.
public struct ScriptedEngine: Sendable {
    /// The registry tasks are started through.
    public let registry: SchemeRegistry
    /// Where the task delivers to the engine; `nil` delivers inline on the writer's thread.
    package let deliveryQueue: (any SchemeDeliveryQueue)?
    /// The longest a run may take before the engine stops the task.
    package let timeout: Duration

    /// Creates an engine over an existing registry.
    ///
    /// - Parameters:
    ///   - registry: The registry to start tasks through.
    ///   - deliveryQueue: Where deliveries run, such as a serial `DispatchQueue` to mimic a main
    ///     thread. Default: inline.
    ///   - timeout: The longest a run may take before the engine stops it. Default: 30 seconds (300 under
    ///     ThreadSanitizer, see ``TestTiming``).
    public init(
        registry: SchemeRegistry, deliveryQueue: (any SchemeDeliveryQueue)? = nil,
        timeout: Duration = TestTiming.scaled(.seconds(30))
    ) {
        self.registry = registry
        self.deliveryQueue = deliveryQueue
        self.timeout = timeout
    }

    /// Creates an engine with a fresh registry serving `handler` for `scheme`.
    ///
    /// - Parameters:
    ///   - handler: The handler to register for every host and path.
    ///   - scheme: The scheme to register. Default: `app`.
    ///   - deliveryQueue: Where deliveries run. Default: inline.
    ///   - timeout: The longest a run may take before the engine stops it. Default: 30 seconds (300 under
    ///     ThreadSanitizer, see ``TestTiming``).
    /// - Throws: `SchemeRegistryError` when `scheme` is invalid or reserved.
    public init(
        serving handler: some SchemeHandler,
        scheme: String = "app",
        deliveryQueue: (any SchemeDeliveryQueue)? = nil,
        timeout: Duration = TestTiming.scaled(.seconds(30))
    ) throws(SchemeRegistryError) {
        let registry = SchemeRegistry()
        try registry.register(handler, for: scheme)
        self.init(registry: registry, deliveryQueue: deliveryQueue, timeout: timeout)
    }

    /// Runs `request` to its end, stopping it at `point`.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - point: When the engine stops the task. Default: ``StopPoint/never``.
    /// - Returns: What the engine received, once the handler has returned.
    public func run(_ request: SchemeRequest, stoppingAt point: StopPoint = .never) async -> ScriptedTaskResult {
        let recording = RecordingSink()
        let control = StopControl(point: point, recording: recording)
        let delivery: (any SchemeDeliveryQueue)? =
            point == .beforeHead ? InterceptingQueue(base: deliveryQueue, control: control) : deliveryQueue
        let task = registry.task(for: request) { task in
            control.attach(task)
            return ScriptedSink(recording: recording, control: control, deliveryQueue: delivery)
        }
        if point == .beforeStart { control.stopNow() }

        let timeout = self.timeout
        let timedOut = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await task.run()
                return false
            }
            group.addTask {
                do { try await Task.sleep(for: timeout) } catch { return false }
                control.stopNow()
                return true
            }
            var timedOut = await group.next() ?? false
            group.cancelAll()
            for await result in group { timedOut = timedOut || result }
            return timedOut
        }
        return ScriptedTaskResult(
            recording: recording,
            metrics: task.metrics,
            respondingHandler: task.respondingHandler,
            wasStopped: task.isStopped,
            timedOut: timedOut
        )
    }

    /// Runs a request for `url` to its end, stopping it at `point`.
    ///
    /// - Parameters:
    ///   - url: The URL, such as `app://localhost/index.html`.
    ///   - method: The method. Default: GET.
    ///   - headerFields: The request's header fields. Default: none.
    ///   - body: The request body. Default: empty.
    ///   - point: When the engine stops the task. Default: ``StopPoint/never``.
    /// - Throws: `SchemeRequestError` when `url` is not a valid request URL.
    public func run(
        _ url: String,
        method: HTTPRequest.Method = .get,
        headerFields: HTTPFields = [:],
        body: SchemeRequestBody = .empty,
        stoppingAt point: StopPoint = .never
    ) async throws(SchemeRequestError) -> ScriptedTaskResult {
        let request = try SchemeRequest(url, method: method, headerFields: headerFields, body: body)
        return await run(request, stoppingAt: point)
    }
}

/// Holds the task and decides when the engine stops it.
final class StopControl: Sendable {
    struct State {
        var task: SchemeTask?
        var bytes = 0
        var intercepted = false
    }

    let point: StopPoint
    let recording: RecordingSink
    private let state = Locked(State())

    init(point: StopPoint, recording: RecordingSink) {
        self.point = point
        self.recording = recording
    }

    func attach(_ task: SchemeTask) {
        state.withLock { $0.task = task }
    }

    /// Stops the task as an engine does, and records the stop when it took effect.
    func stopNow() {
        guard let task = state.withLock({ $0.task }) else { return }
        task.stop()
        if task.isStopped, !recording.isStopped { recording.markStopped() }
    }

    /// Whether this delivery is the first one (and so the moment of ``StopPoint/beforeHead``).
    func interceptFirst() -> Bool {
        state.withLock { state in
            defer { state.intercepted = true }
            return !state.intercepted
        }
    }

    func didReceiveHead() {
        switch point {
        case .afterHead, .afterBytes(0): stopNow()
        default: break
        }
    }

    func didReceive(bytes count: Int) {
        guard case .afterBytes(let limit) = point, limit > 0 else { return }
        let total = state.withLock { state in
            state.bytes += count
            return state.bytes
        }
        if total >= limit, total - count < limit { stopNow() }
    }

    func didReceiveTerminal() {
        if point == .afterFinish { stopNow() }
    }
}

/// The scripted engine's sink: records, then lets the control stop the task.
struct ScriptedSink: SchemeTaskSink {
    let recording: RecordingSink
    let control: StopControl
    let deliveryQueue: (any SchemeDeliveryQueue)?

    func receive(_ response: SchemeResponse) {
        recording.receive(response)
        control.didReceiveHead()
    }

    func receive(_ body: SchemeBody) {
        recording.receive(body)
        control.didReceive(bytes: body.count)
    }

    func finish() {
        recording.finish()
        control.didReceiveTerminal()
    }

    func fail(_ error: any Error) {
        recording.fail(error)
        control.didReceiveTerminal()
    }
}

/// Stops the task as the first delivery is handed to the engine, then runs it (it is dropped).
struct InterceptingQueue: SchemeDeliveryQueue {
    let base: (any SchemeDeliveryQueue)?
    let control: StopControl

    func execute(_ job: @escaping @Sendable () -> Void) {
        if control.interceptFirst() { control.stopNow() }
        if let base {
            base.execute(job)
        } else {
            job()
        }
    }
}
