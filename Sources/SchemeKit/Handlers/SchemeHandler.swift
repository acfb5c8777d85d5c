public import HTTPTypes

/// Something that answers scheme requests: a file directory, a cache, the network.
///
/// A handler says how it answers a request in one place, ``answer(to:)``, which returns at once:
/// - ``SchemeAnswer/response(_:)``: the whole response, known now (a cached file, a 304, a
///   refusal, bytes in memory). The engine writes it in place: no Swift task is made, nothing
///   waits, and an engine on an event loop answers from the loop;
/// - ``SchemeAnswer/passed``: not this handler's; the next one in a ``SchemeHandlerChain`` (or
///   the registry's 404) answers;
/// - ``SchemeAnswer/writing(_:)``: the response is written over time (read from disk, fetched):
///   the engine runs the closure in a Swift task of its own, which a stop cancels.
///
/// Whether an answer goes out inline or from a task is the engine's choice, never a second
/// implementation of the handler. Handlers whose every answer takes time may instead implement
/// ``handle(_:writer:)``, which the default ``answer(to:)`` runs as a ``SchemeAnswer/writing(_:)``.
/// Implement one of the two; engines and chains only ever call ``answer(to:)``.
///
/// ## Contract of a writing answer (and of `handle`)
/// - It writes a head, body bytes and a finish and returns ``SchemeHandlerOutcome/handled``, or
///   returns ``SchemeHandlerOutcome/passed`` *without writing anything*.
/// - Writes after the engine stopped the task throw `CancellationError`: stop working and return.
///   The Swift task running it is cancelled at the same moment, so `Task.isCancelled` and
///   cancellation handlers see the stop too.
/// - Returning ``SchemeHandlerOutcome/handled`` after a head but no finish gets the task finished
///   for it; returning `handled` without a head, or throwing, gets it failed. No task hangs.
/// - Protocol misuse (a second head, data before the head) throws ``SchemeTaskError``.
///
/// ## Contract of ``answer(to:)``
/// It runs on the engine's thread (an event loop, a test's task) and must not block: decide from
/// memory and cheap system calls (opening a file and `fstat` on it are fine; reading a body is
/// not — return ``SchemeAnswer/writing(_:)`` for that).
///
/// ```swift
/// struct Hello: SchemeHandler {
///     func answer(to request: SchemeRequest) -> SchemeAnswer {
///         .response(.text(.ok, "hello", for: request))      // known now: no task
///     }
/// }
///
/// struct Slow: SchemeHandler {
///     func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
///         try await Task.sleep(for: .seconds(1))
///         try await writer.respond(.ok, body: Data("late".utf8))
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

    /// How this handler answers `request`: now, not at all, or by writing over time. See the
    /// protocol's contract. Default: a ``SchemeAnswer/writing(_:)`` answer that runs
    /// ``handle(_:writer:)``.
    func answer(to request: SchemeRequest) -> SchemeAnswer

    /// Answers the request through `writer`, or passes it on. Default: performs
    /// ``answer(to:)`` through `writer` (see ``SchemeAnswer/perform(request:with:)``).
    func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
}

extension SchemeHandler {
    /// GET and HEAD.
    public var supportedMethods: Set<HTTPRequest.Method> { [.get, .head] }

    /// The handler type's name.
    public var name: String { String(describing: Self.self) }

    /// Runs ``handle(_:writer:)`` as a writing answer.
    public func answer(to request: SchemeRequest) -> SchemeAnswer {
        .writing { writer in try await self.handle(request, writer: writer) }
    }

    /// Performs ``answer(to:)`` through `writer`.
    public func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
    {
        try await answer(to: request).perform(request: request, with: writer)
    }
}

/// What a handler did with a request.
public enum SchemeHandlerOutcome: Sendable, Hashable {
    /// The handler answered (or failed) the request.
    case handled
    /// The handler wrote nothing; the next handler in the chain may answer.
    case passed
}
