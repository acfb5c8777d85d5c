public import Foundation

/// The engine side of a task: what an engine adapter implements to receive a response.
///
/// SchemeKit never calls a sink directly from a handler. Every call goes through a guarded task,
/// which guarantees:
/// - ``receive(_:)-(SchemeResponse)`` is called at most once, before any data;
/// - exactly one terminal call (``finish()`` or ``fail(_:)``) follows, unless the engine
///   stopped the task, in which case nothing at all is called after the stop;
/// - calls are serial, in the order the handler made them, on ``executor`` (or inline, under
///   the task's lock, when ``executor`` is `nil`).
///
/// ## Implementation requirements
/// - The methods must not block for long: they run under the task's lock.
/// - An engine that needs its own thread (WebKit's main thread, the GLib main context) returns
///   an executor that runs jobs there, serially and in FIFO order.
/// - ``waitForCapacity()`` lets an engine slow down a handler that writes faster than the engine
///   consumes; it must return promptly when the calling Swift task is cancelled.
public protocol SchemeTaskSink: Sendable {
    /// Where the sink's methods must run; `nil` (the default) runs them inline on the writer's thread.
    var executor: (any SchemeTaskExecutor)? { get }

    /// Receives the response head. Called at most once, before any data.
    func receive(_ response: SchemeResponse)

    /// Receives a chunk of the body. Never empty.
    func receive(_ data: Data)

    /// The response is complete. A terminal call: nothing follows.
    func finish()

    /// The task failed. A terminal call: nothing follows. May come before or after the head.
    func fail(_ error: any Error)

    /// Suspends the writing handler until the engine can take more data. Default: returns at once.
    func waitForCapacity() async
    /// The memory handlers read bodies into, when the engine supplies its own (to pass the bytes
    /// on without a copy). Default: `nil`, handlers use ``MallocBodyAllocator``.
    var bodyAllocator: (any SchemeBodyAllocator)? { get }
}

extension SchemeTaskSink {
    /// Inline delivery: the sink is called on the writer's thread, under the task's lock.
    public var executor: (any SchemeTaskExecutor)? { nil }

    /// No flow control: returns at once.
    public func waitForCapacity() async {}

    /// No engine memory: handlers use ``MallocBodyAllocator``.
    public var bodyAllocator: (any SchemeBodyAllocator)? { nil }
}
