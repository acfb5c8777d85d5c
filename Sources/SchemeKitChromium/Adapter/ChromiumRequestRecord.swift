#if Chromium
    /// What happened to one request the adapter handled: for reports such as `headless-render --json`.
    public struct ChromiumRequestRecord: Sendable, Hashable {
        /// How the request ended.
        public enum Outcome: Sendable, Hashable {
            /// Answered with `Fetch.fulfillRequest`.
            case fulfilled
            /// Sent on to the network (every handler passed, ``ChromiumAdapterConfiguration/PassPolicy/continueRequest``).
            case continued
            /// Failed with `Fetch.failRequest`; the error says why (``ChromiumError/Code/bodyTooLarge``, a handler error, …).
            case failed(ChromiumError)
            /// The task was stopped; the reason names the stop (`canceled`, `targetGone`, `timeout`, `rejected`).
            case stopped(reason: String)
        }

        /// The URL Chromium asked for (`https://app.localhost/x`).
        public var url: String
        /// The registry URL it was served as (`app://localhost/x`).
        public var registryURL: String
        /// The method.
        public var method: String
        /// The `resourceType` Chromium gave (`Document`, `Script`, `Media`, `Fetch`, …).
        public var resourceType: String?
        /// The response status, when a head was written.
        public var status: Int?
        /// Body bytes sent.
        public var bytes: Int
        /// The handler that answered (`"not-found"` for the registry's 404), when one did.
        public var handler: String?
        /// How it ended.
        public var outcome: Outcome
        /// From `Fetch.requestPaused` to the answer sent to Chromium (or the stop).
        public var duration: Duration = .zero
        /// When Chromium paused the request.
        var pausedAt = ContinuousClock.now
    }
#endif
