#if Firefox
    /// Counters of a ``FirefoxSchemeAdapter``: what happened to each intercepted request.
    ///
    /// Every intercepted request ends in exactly one of ``provided``, ``continued``, ``failed`` or
    /// ``stopped``; ``inFlight`` are the rest.
    public struct FirefoxAdapterStatistics: Sendable, Hashable, CustomStringConvertible {
        /// Requests held by the adapter's intercept (`network.beforeRequestSent` with `isBlocked`).
        public var intercepted = 0
        /// Requests answered with `network.provideResponse`.
        public var provided = 0
        /// Requests sent on to the network (`network.continueRequest`).
        public var continued = 0
        /// Requests failed with `network.failRequest` (handler failure, body too large, pass policy,
        /// a malformed event).
        public var failed = 0
        /// Requests whose task was stopped: the page's context closed or navigated away, a timeout,
        /// or Firefox refusing the answer because the request was gone.
        public var stopped = 0
        /// Of ``stopped``: the browsing context was closed (`browsingContext.contextDestroyed`).
        public var contextClosed = 0
        /// Of ``stopped``: the context committed a new document (`browsingContext.navigationCommitted`).
        public var navigatedAway = 0
        /// Of ``stopped``: ``FirefoxAdapterConfiguration/requestTimeout`` passed.
        public var timedOut = 0
        /// Of ``stopped``: answers Firefox refused (`no such request`) because the request was gone.
        public var rejectedByFirefox = 0
        /// Of ``failed``: bodies larger than one message can carry.
        public var bodyTooLarge = 0
        /// `network.beforeRequestSent` events SchemeKit could not read (a request it could name was failed).
        public var malformedEvents = 0
        /// Response bytes sent in `network.provideResponse` bodies.
        public var bytesProvided = 0
        /// Records a ``FirefoxSchemeAdapter/records(bufferLimit:)`` sequence dropped, oldest first,
        /// because its reader fell behind by more than its limit (one per sequence that missed it).
        public var droppedRecords = 0

        /// Creates zeroed counters.
        package init() {}

        /// Intercepted requests not yet provided, continued, failed or stopped.
        public var inFlight: Int { intercepted - provided - continued - failed - stopped }

        /// One line with every counter.
        public var description: String {
            "intercepted=\(intercepted) provided=\(provided) continued=\(continued) failed=\(failed) stopped=\(stopped) "
                + "(contextClosed=\(contextClosed) navigatedAway=\(navigatedAway) timedOut=\(timedOut) rejected=\(rejectedByFirefox)) "
                + "bodyTooLarge=\(bodyTooLarge) malformedEvents=\(malformedEvents) bytes=\(bytesProvided) "
                + "droppedRecords=\(droppedRecords)"
        }
    }
#endif
