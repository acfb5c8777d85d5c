#if Firefox
    public import SchemeKit

    /// The knobs of a ``FirefoxSchemeAdapter``.
    ///
    /// ```swift
    /// var configuration = FirefoxAdapterConfiguration(origins: [VirtualOrigin(host: "app.localhost")])
    /// configuration.whenPassed = .continueRequest     // let unanswered requests reach the network
    /// ```
    public struct FirefoxAdapterConfiguration: Sendable {
        /// What happens to a request every handler passed on.
        public enum PassPolicy: Sendable, Hashable {
            /// The registry's plain-text 404, as on every other engine (the default).
            case notFound
            /// `network.continueRequest`: Firefox sends the request to the network itself.
            case continueRequest
            /// `network.failRequest`: the page sees a network error.
            case fail
        }

        /// The origins served. Default: none (add at least one).
        public var origins: [VirtualOrigin]
        /// What happens when every handler passes. Default: ``PassPolicy/notFound``.
        public var whenPassed: PassPolicy
        /// The longest a request may stay unanswered before its task is stopped and Firefox told the
        /// request failed. BiDi reports no event when a page aborts a request the adapter holds
        /// (an aborted `fetch()`), so this is what ends such a task. `nil` means no limit.
        /// Default: 60 seconds.
        public var requestTimeout: Duration?
        /// With `BrowserTransport/interception` only: a media element's open-ended range
        /// (`Range: bytes=N-` on a request whose destination is `video`, `audio` or `track`) is
        /// narrowed to at most this many bytes (and to what one message can carry), so a large video
        /// is answered with 206s of this size, fetched in parts. Any other request's range is
        /// answered as asked. `nil` leaves media ranges as they are (still narrowed to what fits a
        /// message). Default: 8 MiB.
        public var openEndedRangeCap: Int?
        /// The largest request body (a `POST`'s) read into a request, in bytes. On the loopback
        /// origin a larger one is answered `413`; with interception (`network.addDataCollector`) it
        /// fails its request at once (the page sees a network error; no handler runs, and bodies are
        /// also bounded by what one message carries, ``FirefoxSchemeAdapter/maximumBodySize``).
        /// Either way it is recorded as `EngineError.Code.bodyTooLarge` with a message naming this
        /// setting. Default: 32 MiB.
        public var maximumRequestBodySize: Int
        /// How requests reach the registry. Default: `BrowserTransport/automatic` (the browser's
        /// loopback https origin when it has one and every origin is under `.localhost`).
        public var transport: BrowserTransport

        /// Creates a configuration; every parameter has the default documented on its property.
        public init(
            origins: [VirtualOrigin] = [],
            whenPassed: PassPolicy = .notFound,
            requestTimeout: Duration? = .seconds(60),
            openEndedRangeCap: Int? = 8 << 20,
            maximumRequestBodySize: Int = 32 << 20,
            transport: BrowserTransport = .automatic
        ) {
            self.origins = origins
            self.whenPassed = whenPassed
            self.requestTimeout = requestTimeout
            self.openEndedRangeCap = openEndedRangeCap
            self.maximumRequestBodySize = maximumRequestBodySize
            self.transport = transport
        }
    }
#endif
