public import HTTPTypes

/// A handler that wraps another and forwards to it unless it says otherwise: the base of every
/// wrapping handler (counters, delays, throttles, recorders, header rules).
///
/// `name`, `supportedMethods` and `answer(to:)` are the wrapped handler's, so a wrapper
/// keeps its handler's fast path (an answer known at once is still written inline) and its name
/// in request traces, with no code of its own. A wrapper that changes the answer implements
/// ``SchemeHandler/answer(to:)`` itself — that is the explicit opt-out — usually by transforming
/// ``wrapped``'s answer: a ``SchemeAnswer/response(_:)`` it can change in place, a
/// ``SchemeAnswer/writing(_:)`` it runs through a ``SchemeForwardingWriter`` of its own.
///
/// ```swift
/// struct Counting<Wrapped: SchemeHandler>: SchemeForwardingHandler {
///     let wrapped: Wrapped
///     let counter: RequestCounter
///
///     func answer(to request: SchemeRequest) -> SchemeAnswer {
///         counter.add()
///         return wrapped.answer(to: request)     // the wrapped handler's answer, fast path kept
///     }
/// }
/// ```
public protocol SchemeForwardingHandler<Wrapped>: SchemeHandler {
    /// The handler calls are forwarded to.
    associatedtype Wrapped: SchemeHandler

    /// The wrapped handler.
    var wrapped: Wrapped { get }
}

extension SchemeForwardingHandler {
    /// The wrapped handler's methods.
    public var supportedMethods: Set<HTTPRequest.Method> { wrapped.supportedMethods }

    /// The wrapped handler's name.
    public var name: String { wrapped.name }

    /// The wrapped handler's answer.
    public func answer(to request: SchemeRequest) -> SchemeAnswer {
        wrapped.answer(to: request)
    }
}
