import Foundation

/// The engine side of a task: what an engine adapter implements to receive a response.
///
/// SchemeKit never calls a sink directly from a handler. Every call goes through a guarded task,
/// which guarantees:
/// - ``receive(_:)-(SchemeResponse)`` is called at most once, before any body;
/// - exactly one terminal call (``finish()``, ``fail(_:)``, or ``passed()`` when the sink takes
///   unanswered requests) follows, unless the engine stopped the task, in which case nothing at
///   all is called after the stop;
/// - calls are serial, in the order the handler made them, on ``deliveryQueue`` (or inline, under
///   the task's lock, when ``deliveryQueue`` is `nil`).
///
/// ## Implementation requirements
/// - The methods must not block for long: they run under the task's lock.
/// - An engine that needs its own thread (WebKit's main thread, the GLib main context) returns
///   a ``SchemeDeliveryQueue`` that runs jobs there, serially and in FIFO order.
/// - ``waitForCapacity()`` lets an engine slow down a handler that writes faster than the engine
///   consumes; it must return promptly when the calling Swift task is cancelled.
/// - A sink may call ``SchemeTask/stop()`` on its own task from inside any of its methods. To get
///   the task, create the sink with ``SchemeRegistry/task(for:makeSink:)``.
public protocol SchemeTaskSink: Sendable {
    /// Where the sink's methods must run; `nil` (the default) runs them inline on the writer's
    /// thread. This is where the *engine* is called, not where handlers run: handlers always run
    /// in a Swift task of their own.
    var deliveryQueue: (any SchemeDeliveryQueue)? { get }

    /// Receives the response head. Called at most once, before any body.
    func receive(_ response: SchemeResponse)

    /// Receives a chunk of the body. Never empty.
    func receive(_ body: SchemeBody)

    /// The response is complete. A terminal call: nothing follows.
    func finish()

    /// The task failed. A terminal call: nothing follows. May come before or after the head.
    func fail(_ error: any Error)

    /// Whether the engine answers requests that every handler passed on itself (with
    /// ``passed()``) instead of getting the registry's plain-text 404. Default: `false`.
    ///
    /// An engine that can let a request continue to the network (headless Chromium's
    /// `Fetch.continueRequest`) returns `true`.
    var receivesPassed: Bool { get }

    /// Every handler passed on the request: the engine answers it its own way (continues it to
    /// the network, fails it). A terminal call, made only when ``receivesPassed`` is `true`, and
    /// only if no head was written. Default: does nothing.
    func passed()

    /// Suspends the writing handler until the engine can take more data. Default: returns at once.
    func waitForCapacity() async

    /// The memory handlers read bodies into, when the engine supplies its own (to pass the bytes
    /// on without a copy). Default: `nil`, handlers use ``MallocBodyAllocator``.
    var bodyAllocator: (any SchemeBodyAllocator)? { get }

    /// Whether the engine takes bodies that are regions of open files (``SchemeBody/fileRegion``)
    /// and sends them itself, as `schemeserve` does with `sendfile`. Default: `false`: every body
    /// this sink receives holds bytes.
    var acceptsFileRegions: Bool { get }
}

extension SchemeTaskSink {
    /// Inline delivery: the sink is called on the writer's thread, under the task's lock.
    public var deliveryQueue: (any SchemeDeliveryQueue)? { nil }

    /// The registry answers unhandled requests with 404.
    public var receivesPassed: Bool { false }

    /// Never called while ``receivesPassed`` is `false`.
    public func passed() {}

    /// No flow control: returns at once.
    public func waitForCapacity() async {}

    /// No engine memory: handlers use ``MallocBodyAllocator``.
    public var bodyAllocator: (any SchemeBodyAllocator)? { nil }

    /// Bytes only.
    public var acceptsFileRegions: Bool { false }
}
