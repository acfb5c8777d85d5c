public import HTTPTypes

/// A start/stop callback handler, shaped like `WKURLSchemeHandler`, for porting existing code.
///
/// Wrap it in a ``CallbackHandlerAdapter`` to register it. The adapter gives the handler a
/// ``CallbackSchemeTask`` whose methods never crash: after the engine stops the task (and
/// ``stop(_:)`` was called) every call on it is dropped, never reaching the engine: the guard every
/// WKURLSchemeHandler app otherwise writes by hand.
///
/// ```swift
/// final class LegacyHandler: CallbackSchemeHandler {
///     func start(_ task: CallbackSchemeTask) {
///         queue.async {
///             task.didReceive(SchemeResponse(status: .ok, mimeType: "text/plain"))
///             task.didReceive(Data("hi".utf8))
///             task.didFinish()
///         }
///     }
///     func stop(_ task: CallbackSchemeTask) { /* cancel work */ }
/// }
/// try registry.register(CallbackHandlerAdapter(LegacyHandler()), for: "app")
/// ```
public protocol CallbackSchemeHandler: Sendable {
    /// The methods this handler intercepts. Default: GET and HEAD.
    var supportedMethods: Set<HTTPRequest.Method> { get }

    /// Starts answering `task`. Return quickly; answer from any thread, later.
    func start(_ task: CallbackSchemeTask)

    /// The engine stopped `task`: cancel the work. Calls on `task` after this are dropped.
    func stop(_ task: CallbackSchemeTask)
}

extension CallbackSchemeHandler {
    /// GET and HEAD.
    public var supportedMethods: Set<HTTPRequest.Method> { [.get, .head] }
}
