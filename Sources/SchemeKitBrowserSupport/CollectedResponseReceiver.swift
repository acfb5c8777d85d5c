#if Chromium || Firefox
    package import Foundation
    package import SchemeKit

    /// The adapter side of a ``CollectingResponseSink``: what a browser adapter does with a request's
    /// collected answer (neither CDP nor BiDi can stream a response, so the whole body goes at once).
    ///
    /// Contract: every method may be called from inside the request's task, under its lock (the sink
    /// runs inline), so an implementation only records and defers anything that takes the task's
    /// lock (its responder, `stop()` from another thread) to a `Task` of its own; each method is
    /// called at most once per request and after a terminal one nothing more comes.
    package protocol CollectedResponseReceiver: Sendable {
        /// Whether a request that every handler passed on comes back through ``passed(_:)`` (the
        /// pass policy is not the registry's 404).
        var receivesPassedRequests: Bool { get }

        /// The task finished with `response` and the whole of `body`, within the sink's limit.
        func complete(_ requestId: String, response: SchemeResponse, body: Data)

        /// Every handler passed on the request: apply the pass policy.
        func passed(_ requestId: String)

        /// The handler chain failed with `error` (before the body went over the limit).
        func failRequest(_ requestId: String, handlerError error: any Error)

        /// The body is over the sink's limit: at least `size` bytes. Fail the request; the task
        /// goes on until stopped, and nothing more is delivered for it.
        func failRequest(_ requestId: String, bodyTooLarge size: Int)
    }
#endif
