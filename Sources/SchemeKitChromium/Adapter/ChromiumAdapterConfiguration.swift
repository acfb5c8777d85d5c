#if Chromium
    public import SchemeKit

    /// The knobs of a ``ChromiumSchemeAdapter``.
    ///
    /// ```swift
    /// var configuration = ChromiumAdapterConfiguration(origins: [VirtualOrigin(host: "app.localhost")])
    /// configuration.whenPassed = .continueRequest     // let unanswered requests reach the network
    /// ```
    public struct ChromiumAdapterConfiguration: Sendable {
        /// What happens to a request every handler passed on.
        public enum PassPolicy: Sendable, Hashable {
            /// The registry's plain-text 404, as on every other engine (the default).
            case notFound
            /// `Fetch.continueRequest`: Chromium sends the request to the network itself.
            case continueRequest
            /// `Fetch.failRequest` with a `Network.ErrorReason` such as `"Failed"` or `"BlockedByClient"`.
            case fail(errorReason: String)
        }

        /// The origins served. Default: none (add at least one).
        public var origins: [VirtualOrigin]
        /// What happens when every handler passes. Default: ``PassPolicy/notFound``.
        public var whenPassed: PassPolicy
        /// The longest a request may stay unanswered before its task is stopped and Chromium told
        /// the request failed (a navigation away may cancel nothing). `nil` means no limit.
        /// Default: 60 seconds.
        public var requestTimeout: Duration?
        /// With `BrowserTransport/interception`: the largest body sent over the JSON transport: Chromium refuses a message over 100 MiB,
        /// and base64 makes a body a third larger. A larger body fails the request with
        /// `EngineError.Code.bodyTooLarge` (`Fetch.failRequest`), never the connection.
        /// Default: 75 MiB − 64 KiB (100 MiB − 64 KiB of headroom, after base64).
        public var maximumJSONBodySize: Int
        /// With `BrowserTransport/interception`: the largest body sent over CBOR (raw bytes; 150 MiB is checked to arrive intact), held in
        /// memory while collected, once per request in flight. A larger body fails the request with
        /// `EngineError.Code.bodyTooLarge` (`Fetch.failRequest`), whose message names this
        /// setting. Default: 32 MiB.
        public var maximumCBORBodySize: Int
        /// With `BrowserTransport/interception` only: a media element's open-ended range
        /// (`Range: bytes=N-` on a request whose `resourceType` is `Media`) is narrowed to at most
        /// this many bytes, so a large video is answered with 206s of this size and fetched in parts
        /// instead of one huge message. Any other request's range is answered as asked. `nil` leaves
        /// ranges as they are. Default: 8 MiB.
        public var openEndedRangeCap: Int?
        /// Caps for `Network.enable` on auto-attached pages: Chromium keeps at most this many bytes
        /// of response bodies for the inspector. Default: 1 MiB.
        public var networkBufferSize: Int
        /// How requests reach the registry. Default: `BrowserTransport/automatic` (the browser's
        /// loopback https origin when it has one and every origin is under `.localhost`).
        public var transport: BrowserTransport
        /// The largest request body (a `POST`'s) read into a request on the loopback origin, in
        /// bytes; a larger one is answered `413` and recorded as `EngineError.Code.bodyTooLarge`.
        /// Default: 32 MiB.
        public var maximumRequestBodySize: Int

        /// Creates a configuration; every parameter has the default documented on its property.
        public init(
            origins: [VirtualOrigin] = [],
            whenPassed: PassPolicy = .notFound,
            requestTimeout: Duration? = .seconds(60),
            maximumJSONBodySize: Int = ((100 << 20) - (64 << 10)) / 4 * 3,
            maximumCBORBodySize: Int = 32 << 20,
            openEndedRangeCap: Int? = 8 << 20,
            networkBufferSize: Int = 1 << 20,
            transport: BrowserTransport = .automatic,
            maximumRequestBodySize: Int = 32 << 20
        ) {
            self.origins = origins
            self.whenPassed = whenPassed
            self.requestTimeout = requestTimeout
            self.maximumJSONBodySize = maximumJSONBodySize
            self.maximumCBORBodySize = maximumCBORBodySize
            self.openEndedRangeCap = openEndedRangeCap
            self.networkBufferSize = networkBufferSize
            self.transport = transport
            self.maximumRequestBodySize = maximumRequestBodySize
        }
    }
#endif
