/// Counters of an engine's scheme adapter (`WebKitSchemeAdapter.statistics`,
/// `ChromiumSchemeAdapter.statistics`, `FirefoxSchemeAdapter.statistics`): what happened to each
/// request the engine handed over.
///
/// Every intercepted request ends in exactly one of ``answered``, ``continued``, ``failed`` or
/// ``stopped``, the outcomes of its ``SchemeRequestRecord``; ``inFlight`` are the rest. The names
/// are the same on every engine; each counter says which protocol event it counts (WebKitGTK's
/// adapter documents which counters it fills).
///
/// ```swift
/// let statistics = adapter.statistics
/// print(statistics.answered, statistics.inFlight)   // or print(statistics): one line
/// ```
public struct EngineAdapterStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Requests the engine handed to the adapter: Chromium's `Fetch.requestPaused`, Firefox's
    /// `network.beforeRequestSent` with `isBlocked`, WebKitGTK's scheme requests and media ranges.
    public var intercepted = 0
    /// Requests answered from the registry (`Fetch.fulfillRequest`, `network.provideResponse`).
    public var answered = 0
    /// Requests sent on to the network (`Fetch.continueRequest`, `network.continueRequest`).
    public var continued = 0
    /// Requests failed (`Fetch.failRequest`, `network.failRequest`): the handler failed, a body was
    /// over a limit, the pass policy said so, or the browser's event could not be read.
    public var failed = 0
    /// Requests whose task was stopped, for any `SchemeRequestRecord.StopReason`: the four below,
    /// plus the adapter's `stop()` and a closed connection, which have no counter of their own.
    public var stopped = 0
    /// Of ``stopped``: the page no longer wanted the request. Chromium's
    /// `Network.loadingFailed {canceled: true}`; Firefox's context committed a new document
    /// (`browsingContext.navigationCommitted`).
    public var canceledByPage = 0
    /// Of ``stopped``: the page was closed, detached or crashed (Chromium's target,
    /// Firefox's `browsingContext.contextDestroyed`).
    public var pageClosed = 0
    /// Of ``stopped``: the adapter configuration's `requestTimeout` passed.
    public var timedOut = 0
    /// Of ``stopped``: answers the browser refused because the request was already gone
    /// (Chromium's `-32602`, Firefox's `no such request`).
    public var rejected = 0
    /// Of ``failed``: bodies over a limit (larger than one message can carry, or a request body
    /// over `maximumRequestBodySize`).
    public var bodyTooLarge = 0
    /// Of ``failed``: request events the adapter could not read (the request, when it could name
    /// it, was failed).
    public var malformedEvents = 0
    /// Response body bytes sent in answers.
    public var bytesAnswered = 0
    /// Records a `records(bufferLimit:)` sequence dropped, oldest first, because its reader fell
    /// behind by more than its limit (one per sequence that missed it).
    public var droppedRecords = 0

    /// Creates zeroed counters.
    package init() {}

    /// Counts a stopped request under ``stopped`` and its reason's counter.
    package mutating func countStop(_ reason: SchemeRequestRecord.StopReason) {
        stopped += 1
        switch reason {
        case .canceledByPage: canceledByPage += 1
        case .pageClosed: pageClosed += 1
        case .timedOut: timedOut += 1
        case .rejected: rejected += 1
        case .adapterStopped, .disconnected: break
        }
    }

    /// Counts a failed request under ``failed``, and under ``bodyTooLarge`` when `error` is an
    /// ``EngineError`` with code ``EngineError/Code/bodyTooLarge``.
    package mutating func countFailure(_ error: (any Error)?) {
        failed += 1
        if (error as? EngineError)?.code == .bodyTooLarge { bodyTooLarge += 1 }
    }

    /// Counts a request the adapter failed because its event could not be read: ``intercepted``,
    /// ``failed`` and ``malformedEvents``.
    package mutating func countMalformedRequest() {
        intercepted += 1
        failed += 1
        malformedEvents += 1
    }

    /// Intercepted requests not yet answered, continued, failed or stopped.
    public var inFlight: Int { intercepted - answered - continued - failed - stopped }

    /// One line with every counter.
    public var description: String {
        "intercepted=\(intercepted) answered=\(answered) continued=\(continued) failed=\(failed) stopped=\(stopped) "
            + "(canceledByPage=\(canceledByPage) pageClosed=\(pageClosed) timedOut=\(timedOut) rejected=\(rejected)) "
            + "bodyTooLarge=\(bodyTooLarge) malformedEvents=\(malformedEvents) bytes=\(bytesAnswered) "
            + "droppedRecords=\(droppedRecords)"
    }
}
