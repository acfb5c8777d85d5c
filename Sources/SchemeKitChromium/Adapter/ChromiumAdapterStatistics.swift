#if Chromium
    /// Counters of a ``ChromiumSchemeAdapter``: what happened to each paused request.
    ///
    /// Every paused request ends in exactly one of ``fulfilled``, ``continued``, ``failed`` or
    /// ``stopped``; ``inFlight`` are the rest.
    public struct ChromiumAdapterStatistics: Sendable, Hashable, CustomStringConvertible {
        /// `Fetch.requestPaused` events handled.
        public var paused = 0
        /// Requests answered with `Fetch.fulfillRequest`.
        public var fulfilled = 0
        /// Requests sent on to the network (`Fetch.continueRequest`).
        public var continued = 0
        /// Requests failed with `Fetch.failRequest` (handler failure, body too large, pass policy).
        public var failed = 0
        /// Requests whose task was stopped: canceled by the page, target gone, timeout, or refused by
        /// Chromium (-32602) when answered.
        public var stopped = 0
        /// Of ``stopped``: `Network.loadingFailed {canceled: true}`.
        public var canceledByPage = 0
        /// Of ``stopped``: the page (target) was closed, detached or crashed.
        public var targetGone = 0
        /// Of ``stopped``: ``ChromiumAdapterConfiguration/requestTimeout`` passed.
        public var timedOut = 0
        /// Answers Chromium refused because the request was already gone (-32602).
        public var rejectedByChromium = 0
        /// Of ``failed``: bodies over the transport's limit.
        public var bodyTooLarge = 0
        /// Response bytes sent in `Fetch.fulfillRequest` bodies.
        public var bytesFulfilled = 0
        /// Records a ``ChromiumSchemeAdapter/records(bufferLimit:)`` sequence dropped, oldest first,
        /// because its reader fell behind by more than its limit (one per sequence that missed it).
        public var droppedRecords = 0

        /// Creates zeroed counters.
        package init() {}

        /// Paused requests not yet fulfilled, continued, failed or stopped.
        public var inFlight: Int { paused - fulfilled - continued - failed - stopped }

        /// One line with every counter.
        public var description: String {
            "paused=\(paused) fulfilled=\(fulfilled) continued=\(continued) failed=\(failed) stopped=\(stopped) "
                + "(canceled=\(canceledByPage) targetGone=\(targetGone) timedOut=\(timedOut) rejected=\(rejectedByChromium)) "
                + "bodyTooLarge=\(bodyTooLarge) bytes=\(bytesFulfilled) droppedRecords=\(droppedRecords)"
        }
    }
#endif
