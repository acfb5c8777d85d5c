/// A handler that can answer some requests at once, on the caller's thread, without suspending:
/// a file whose body is already in memory, a 304, a refusal.
///
/// An engine adapter that runs on an event loop (`schemeserve`'s HTTP connections) asks
/// ``SchemeRegistry/immediateResponse(for:)`` first and writes the answer in place, with no Swift
/// task, no continuation and no thread hop; only when that returns `nil` does it start a
/// ``SchemeTask``, which runs ``SchemeHandler/handle(_:writer:)`` as usual. The two must agree:
/// an immediate answer is exactly what `handle` would have written (the same status, header fields
/// and bytes), only sooner.
///
/// ## Implementation requirements
/// - Return ``SchemeImmediateAnswer/deferred`` whenever the answer needs anything that may
///   block or suspend: reading a body from disk, the network, a lock held for long, a clock.
///   Opening a file and `fstat` on it are fine (what a cache hit must do to stay correct).
/// - Return ``SchemeImmediateAnswer/passed`` only when `handle` would pass without writing.
/// - Never write anywhere: there is no writer and no task. Counting, logging and metrics of the
///   answer are the registry's.
///
/// ```swift
/// struct Health: SchemeImmediateHandler {
///     func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
///         try await writer.respond(.ok, body: Data("ok".utf8))
///         return .handled
///     }
///     func immediateAnswer(to request: SchemeRequest) -> SchemeImmediateAnswer {
///         let (head, body) = SchemeResponse.plainText(.ok, "ok")
///         return .response(SchemeCollectedResponse(head: head, body: request.method == .head ? Data() : body))
///     }
/// }
/// ```
public protocol SchemeImmediateHandler: SchemeHandler {
    /// Answers `request` now when that needs no waiting; see the protocol's requirements.
    func immediateAnswer(to request: SchemeRequest) -> SchemeImmediateAnswer
}

/// What a ``SchemeImmediateHandler`` can say about a request without suspending.
public enum SchemeImmediateAnswer: Sendable {
    /// The whole response: head and body (empty for HEAD and bodiless statuses).
    case response(SchemeCollectedResponse)
    /// ``SchemeHandler/handle(_:writer:)`` would pass the request on without writing.
    case passed
    /// Only ``SchemeHandler/handle(_:writer:)`` can answer: run a task.
    case deferred
}
