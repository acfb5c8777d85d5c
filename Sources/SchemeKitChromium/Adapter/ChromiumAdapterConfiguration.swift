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
        /// The largest body sent over the JSON transport: Chromium refuses a message over 100 MiB,
        /// and base64 makes a body a third larger. A larger body fails the request with
        /// `EngineError.Code.bodyTooLarge` (`Fetch.failRequest`), never the connection.
        /// Default: 75 MiB − 64 KiB (100 MiB − 64 KiB of headroom, after base64).
        public var maximumJSONBodySize: Int
        /// The largest body sent over CBOR (raw bytes; 150 MiB is checked to arrive intact), held in
        /// memory while collected, once per request in flight. A larger body fails the request with
        /// `EngineError.Code.bodyTooLarge` (`Fetch.failRequest`), whose message names this
        /// setting. Default: 32 MiB.
        public var maximumCBORBodySize: Int
        /// Open-ended ranges (`Range: bytes=N-`, what a media element asks first) are narrowed to at
        /// most this many bytes, so a large video is answered with a 206 of this size and fetched in
        /// parts instead of becoming one huge message. `nil` leaves ranges as they are. Default: 8 MiB.
        public var openEndedRangeCap: Int?
        /// Caps for `Network.enable` on auto-attached pages: Chromium keeps at most this many bytes
        /// of response bodies for the inspector. Default: 1 MiB.
        public var networkBufferSize: Int

        /// Creates a configuration; every parameter has the default documented on its property.
        public init(
            origins: [VirtualOrigin] = [],
            whenPassed: PassPolicy = .notFound,
            requestTimeout: Duration? = .seconds(60),
            maximumJSONBodySize: Int = ((100 << 20) - (64 << 10)) / 4 * 3,
            maximumCBORBodySize: Int = 32 << 20,
            openEndedRangeCap: Int? = 8 << 20,
            networkBufferSize: Int = 1 << 20
        ) {
            self.origins = origins
            self.whenPassed = whenPassed
            self.requestTimeout = requestTimeout
            self.maximumJSONBodySize = maximumJSONBodySize
            self.maximumCBORBodySize = maximumCBORBodySize
            self.openEndedRangeCap = openEndedRangeCap
            self.networkBufferSize = networkBufferSize
        }
    }
#endif
