#if SCHEMEKIT_WEBKIT_STANDIN
    import WebKitStandIn
#elseif canImport(WebKit)
    import WebKit
#endif

#if SCHEMEKIT_WEBKIT_STANDIN || canImport(WebKit)
    public import SchemeKit

    /// The CORS header fields (WHATWG Fetch §3.2) the adapter adds to responses for pages of other
    /// origins, and the preflight it answers for them.
    ///
    /// A page's origin on a custom scheme is `app://localhost`. Requests it makes to its own origin
    /// need no CORS at all. This policy is for the other direction: a page of another origin (an
    /// `https://` page in the same view, or `app://other`) that calls the registry's scheme with
    /// `fetch()`. It cannot fix a remote server that refuses `app://localhost` as an origin
    /// (cordova-ios#1658): route such API calls through the registry instead (a
    /// `NetworkFallbackHandler` under `/api` of the app's own origin), where they are same-origin.
    ///
    /// When a request's `Origin` is allowed, every response gets `Access-Control-Allow-Origin`
    /// (that origin), `Vary: Origin`, and, when set, `Access-Control-Allow-Credentials` and
    /// `Access-Control-Expose-Headers`. A preflight (`OPTIONS` with `Access-Control-Request-Method`)
    /// from an allowed origin is answered `204` by the adapter with the allowed methods and headers,
    /// without reaching a handler; from any other origin it goes to the handlers as any request.
    ///
    /// ```swift
    /// let options = WKSchemeAdapterOptions(cors: WKCORSPolicy(allowedOrigins: ["https://example.com"]))
    /// ```
    public struct WKCORSPolicy: Sendable, Hashable {
        /// The origins allowed, exactly as browsers send them (`https://example.com`, no path);
        /// `"*"` allows any origin (the origin is echoed, never `*`, so credentials still work).
        public var allowedOrigins: Set<String>
        /// The methods a preflight allows. Default: `GET`, `HEAD`, `POST`.
        public var allowedMethods: [HTTPRequest.Method]
        /// The request header fields a preflight allows. Default: `Content-Type`.
        public var allowedHeaders: [String]
        /// The response header fields the page may read beyond the safelisted ones. Default: none.
        public var exposedHeaders: [String]
        /// Whether to send `Access-Control-Allow-Credentials: true`. Default: `false`.
        public var allowsCredentials: Bool
        /// How long a browser may cache a preflight, in seconds. Default: 600.
        public var maxAge: Int

        /// Creates a policy; see each property for its default.
        public init(
            allowedOrigins: Set<String>,
            allowedMethods: [HTTPRequest.Method] = [.get, .head, .post],
            allowedHeaders: [String] = ["Content-Type"],
            exposedHeaders: [String] = [],
            allowsCredentials: Bool = false,
            maxAge: Int = 600
        ) {
            self.allowedOrigins = allowedOrigins
            self.allowedMethods = allowedMethods
            self.allowedHeaders = allowedHeaders
            self.exposedHeaders = exposedHeaders
            self.allowsCredentials = allowsCredentials
            self.maxAge = maxAge
        }

        /// Whether `origin` (a request's `Origin` field) is allowed.
        public func allows(origin: String) -> Bool {
            allowedOrigins.contains("*") || allowedOrigins.contains(origin)
        }

        /// The fields to add to a response for a request from `origin`; empty when it is not allowed.
        public func responseFields(origin: String?) -> HTTPFields {
            guard let origin, allows(origin: origin) else { return [:] }
            var fields = HTTPFields()
            fields[.accessControlAllowOrigin] = origin
            fields[.vary] = "Origin"
            if allowsCredentials { fields[.accessControlAllowCredentials] = "true" }
            if !exposedHeaders.isEmpty { fields[.accessControlExposeHeaders] = exposedHeaders.joined(separator: ", ") }
            return fields
        }

        /// The `204` answer to a preflight from `origin`, or `nil` when `request` is not a preflight
        /// or its origin is not allowed.
        public func preflightResponse(to request: SchemeRequest) -> SchemeResponse? {
            guard request.method == .options, request.headerFields[.accessControlRequestMethod] != nil,
                let origin = request.headerFields[.origin], allows(origin: origin)
            else { return nil }
            var fields = responseFields(origin: origin)
            fields[.accessControlAllowMethods] = allowedMethods.map(\.rawValue).joined(separator: ", ")
            if !allowedHeaders.isEmpty { fields[.accessControlAllowHeaders] = allowedHeaders.joined(separator: ", ") }
            fields[.accessControlMaxAge] = String(maxAge)
            fields[.contentLength] = "0"
            return SchemeResponse(status: .noContent, headerFields: fields)
        }
    }
#endif
