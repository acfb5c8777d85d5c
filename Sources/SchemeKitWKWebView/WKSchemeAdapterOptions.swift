#if SCHEMEKIT_WEBKIT_STANDIN
    import WebKitStandIn
#elseif canImport(WebKit)
    import WebKit
#endif

#if SCHEMEKIT_WEBKIT_STANDIN || canImport(WebKit)
    /// The knobs of a ``WKWebViewSchemeAdapter``.
    ///
    /// ```swift
    /// var options = WKSchemeAdapterOptions()
    /// options.maximumRequestBodySize = 8 << 20
    /// options.cors = WKCORSPolicy(allowedOrigins: ["https://app.example.com"])
    /// ```
    public struct WKSchemeAdapterOptions: Sendable, Hashable {
        /// The largest piece of body handed to one `didReceive(_: Data)`, in bytes. A handler's larger
        /// chunk is cut into pieces of this size, handed to WebKit one after the other in the main-queue
        /// job that delivers the chunk; the memory a task holds is bounded by the handler's own chunk
        /// (`LocalFileHandler` reads 64 KiB at a time) and WebKit never gets a piece larger than this. Default: 256 KiB; at least 1 KiB.
        public var pieceSize: Int {
            didSet { pieceSize = max(1 << 10, pieceSize) }
        }

        /// The largest request body (a `POST`'s, in bytes) a handler can read. A body WebKit gives as
        /// `httpBody` larger than this, or a `Content-Length` larger than this, is answered `413` at
        /// once; an `httpBodyStream` is read as the handler asks, one 64 KiB read at a time, and past
        /// this size the handler's read throws `EngineError` with code `bodyTooLarge`, which the
        /// adapter answers `413 Content Too Large` (RFC 9110 §15.5.14) when no head was written yet.
        /// Default: 32 MiB.
        public var maximumRequestBodySize: Int {
            didSet { maximumRequestBodySize = max(0, maximumRequestBodySize) }
        }

        /// The CORS header fields to add for pages of other origins, or `nil` for none (the default):
        /// pages served from the registry's own origin (`app://localhost`) need none for its
        /// resources. See ``WKCORSPolicy``.
        public var cors: WKCORSPolicy?

        /// Creates options; see each property for its default.
        public init(pieceSize: Int = 256 << 10, maximumRequestBodySize: Int = 32 << 20, cors: WKCORSPolicy? = nil) {
            self.pieceSize = max(1 << 10, pieceSize)
            self.maximumRequestBodySize = max(0, maximumRequestBodySize)
            self.cors = cors
        }
    }
#endif
