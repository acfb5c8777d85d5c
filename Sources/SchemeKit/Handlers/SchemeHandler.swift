public import HTTPTypes

/// Something that answers scheme requests: a file directory, a cache, the network.
///
/// A handler gets the request and a ``SchemeResponseWriter``. It either answers — writes a head,
/// body bytes and a finish, and returns ``SchemeHandlerOutcome/handled`` — or returns
/// ``SchemeHandlerOutcome/passed`` *without writing anything*, so a ``SchemeHandlerChain`` can try
/// the next handler.
///
/// ## Contract
/// - Writes after the engine stopped the task throw `CancellationError`: stop working and return.
///   The Swift task running the handler is cancelled at the same moment, so `Task.isCancelled`
///   and cancellation handlers see the stop too.
/// - A handler that returns ``SchemeHandlerOutcome/handled`` after writing a head but no finish
///   gets its task finished for it; one that returns `handled` without a head, or throws, gets its
///   task failed. No task hangs.
/// - Protocol misuse (a second head, data before the head) throws ``SchemeTaskError``.
///
/// ```swift
/// struct Hello: SchemeHandler {
///     func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
///         try await writer.respond(.ok, mimeType: "text/plain", body: Data("hello".utf8))
///         return .handled
///     }
/// }
/// ```
public protocol SchemeHandler: Sendable {
    /// The methods this handler intercepts. Default: GET and HEAD.
    ///
    /// The registry answers other methods with 405 and an `Allow` header. Opt in to POST and
    /// others only when your engine delivers request bodies reliably.
    var supportedMethods: Set<HTTPRequest.Method> { get }

    /// A short name for logs and request traces ("files", "image-cache"). Default: the type's name.
    var name: String { get }

    /// Answers the request through `writer`, or passes it on.
    func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
}

extension SchemeHandler {
    /// GET and HEAD.
    public var supportedMethods: Set<HTTPRequest.Method> { [.get, .head] }

    /// The handler type's name.
    public var name: String { String(describing: Self.self) }
}

/// What a handler did with a request.
public enum SchemeHandlerOutcome: Sendable, Hashable {
    /// The handler answered (or failed) the request.
    case handled
    /// The handler wrote nothing; the next handler in the chain may answer.
    case passed
}
