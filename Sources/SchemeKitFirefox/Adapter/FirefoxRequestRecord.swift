#if Firefox
    /// What happened to one request the adapter handled: for reports such as `headless-render --json`.
    public struct FirefoxRequestRecord: Sendable, Hashable {
        /// How the request ended.
        public enum Outcome: Sendable, Hashable {
            /// Answered with `network.provideResponse`.
            case provided
            /// Sent on to the network (every handler passed, ``FirefoxAdapterConfiguration/PassPolicy/continueRequest``).
            case continued
            /// Failed with `network.failRequest`; the error says why (``FirefoxError/Code/bodyTooLarge``
            /// naming the limit, a handler's error, …).
            case failed(FirefoxError)
            /// The task was stopped; the reason names the stop (`contextClosed`, `navigatedAway`,
            /// `timeout`, `rejected`, `disconnected`).
            case stopped(reason: String)
        }

        /// The URL Firefox asked for (`https://app.localhost/x`).
        public var url: String
        /// The registry URL it was served as (`app://localhost/x`).
        public var registryURL: String
        /// The method.
        public var method: String
        /// Fetch's destination as Firefox gave it (`document`, `script`, `video`, …; empty for `fetch()`).
        public var destination: String?
        /// The response status, when a head was written.
        public var status: Int?
        /// Body bytes sent.
        public var bytes: Int
        /// The handler that answered (`"not-found"` for the registry's 404), when one did.
        public var handler: String?
        /// How it ended.
        public var outcome: Outcome
        /// From `network.beforeRequestSent` to the answer sent to Firefox (or the stop).
        public var duration: Duration = .zero
        /// When Firefox reported the request.
        var interceptedAt = ContinuousClock.now
    }
#endif
