import Dispatch
public import HTTPTypes

/// Makes a ``CallbackSchemeHandler`` a ``SchemeHandler``.
///
/// The adapter calls ``CallbackSchemeHandler/start(_:)`` on a dispatch queue (never on Swift's
/// cooperative pool, so it may block), forwards the task's calls to the guarded
/// writer in order, and calls ``CallbackSchemeHandler/stop(_:)`` once when the engine stops the
/// task after it started (a task stopped before it started is never started). Calls the callback
/// code makes on its task after the stop are dropped. A callback handler always answers (it
/// cannot pass). Body bytes queue in the task up to its bound, and the callback side waits for
/// room beyond it (see ``CallbackSchemeTask``'s "Back-pressure").
public struct CallbackHandlerAdapter<Handler: CallbackSchemeHandler>: SchemeHandler {
    /// The wrapped handler.
    package let handler: Handler

    /// Wraps `handler`.
    public init(_ handler: Handler) {
        self.handler = handler
    }

    /// The wrapped handler's methods.
    public var supportedMethods: Set<HTTPRequest.Method> { handler.supportedMethods }

    /// The wrapped handler's type name.
    public var name: String { String(describing: Handler.self) }

    /// Starts the callback handler and relays its calls until a terminal call or a stop.
    public func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
    {
        let task = CallbackSchemeTask(request: request)
        let handler = self.handler
        await withTaskCancellationHandler {
            // `start` runs on a dispatch queue, never on Swift's cooperative pool: a ported handler
            // that answers inside it may then block on back-pressure while this task drains.
            // A stop that came first means the callback handler is never started (nor stopped).
            DispatchQueue.global().async {
                if task.markStarted() { handler.start(task) }
            }
            while let event = await task.nextEvent() {
                do {
                    switch event {
                    case .head(let response): try await writer.writeHead(response)
                    case .body(let data): try await writer.write(data)
                    case .finish: try await writer.finish()
                    case .fail(let error): try await writer.fail(error)
                    }
                } catch is CancellationError {
                    break
                } catch {
                    // Misuse by the callback code is counted by the guarded task; keep relaying.
                }
            }
        } onCancel: {
            // `onCancel` runs at most once; `stop` only reaches a handler that was started.
            if task.markStopped() { handler.stop(task) }
        }
        return .handled
    }
}
