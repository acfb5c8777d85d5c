// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import HTTPTypes
    import SchemeKit

    /// What HTTP does to a handler's response on its way out, decided once from the request and
    /// the response head: the final header fields and the body transforms.
    ///
    /// The head and body come from the handler chain unchanged except for what HTTP needs on
    /// top: header values with CR/LF/FF/NUL removed, the security headers
    /// (`Cross-Origin-Resource-Policy: same-origin`, `X-Content-Type-Options: nosniff`), CORS for
    /// the configured origins, gzip for compressible bodies the client accepts it for, and the
    /// live-reload script in HTML pages with `--watch`. The same plan serves the immediate path
    /// (a whole response in memory) and the streaming one.
    struct ResponsePlan: Sendable {
        /// The status.
        var status: HTTPResponse.Status
        /// The final header fields.
        var fields: HTTPFields
        /// The body transforms.
        var transforms: ResponseTransforms

        /// Whether the body may travel as file regions: only when no transform needs its bytes.
        var acceptsFileRegions: Bool { transforms.injectScript == nil && !transforms.gzip }
    }

    /// Makes ``ResponsePlan``s for one server configuration. Pure and thread-safe.
    struct ResponsePlanner: Sendable {
        let corsOrigins: Set<String>
        let gzip: Bool
        let liveReloadScript: Data?

        init(configuration: ServeConfiguration) {
            corsOrigins = Set(configuration.corsOrigins)
            gzip = configuration.gzip
            liveReloadScript = configuration.watch ? Data(LiveReload.script.utf8) : nil
        }

        /// The plan for `response` to `request`.
        func plan(_ response: SchemeResponse, for request: HTTPRequest) -> ResponsePlan {
            var fields = response.headerFields
            ResponseTransforms.sanitise(&fields)
            addSecurityHeaders(&fields, request: request)
            var transforms = ResponseTransforms()
            let status = response.status
            if let script = liveReloadScript, status == .ok, fields[.contentEncoding] == nil,
                fields[.contentRange] == nil,
                fields[.contentType]?.lowercased().hasPrefix("text/html") == true
            {
                transforms.injectScript = script
                if let length = fields[.contentLength].flatMap(Int.init) {
                    fields[.contentLength] = String(length + script.count)
                }
            }
            if gzip, status == .ok, CompressibleContent.isCompressible(fields[.contentType]) {
                if fields[.contentEncoding] == nil, fields[.contentRange] == nil, request.headerFields[.range] == nil,
                    let accept = request.headerFields[.acceptEncoding], AcceptEncoding(accept).allows("gzip"),
                    (fields[.contentLength].flatMap(Int.init) ?? Int.max) >= 256
                {
                    transforms.gzip = true
                    fields[.contentEncoding] = "gzip"
                    fields[.contentLength] = nil
                    fields[.vary] = fields[.vary].map { $0 + ", Accept-Encoding" } ?? "Accept-Encoding"
                    // The gzipped bytes are another representation: its validator is weak (as nginx
                    // does), so `If-None-Match` still matches it (weak comparison) and `If-Range`
                    // never does (a range of other bytes).
                    if let etag = fields[.eTag], etag.hasPrefix("\"") { fields[.eTag] = "W/" + etag }
                } else if fields[.vary] == nil {
                    fields[.vary] = "Accept-Encoding"
                }
            }
            return ResponsePlan(status: status, fields: fields, transforms: transforms)
        }

        /// A short plain-text answer of the server's own (400, 403, 500, 502), with the security
        /// headers.
        func plain(_ status: HTTPResponse.Status, _ message: String, for request: HTTPRequest?) -> (
            ResponsePlan, Data
        ) {
            var fields = HTTPFields()
            fields[.contentType] = "text/plain; charset=utf-8"
            fields[.contentLength] = String(message.utf8.count)
            addSecurityHeaders(&fields, request: request)
            let body = request?.method == .head ? Data() : Data(message.utf8)
            return (ResponsePlan(status: status, fields: fields, transforms: ResponseTransforms()), body)
        }

        private func addSecurityHeaders(_ fields: inout HTTPFields, request: HTTPRequest?) {
            fields[.crossOriginResourcePolicy] = "same-origin"
            fields[.xContentTypeOptions] = "nosniff"
            if !corsOrigins.isEmpty {
                fields[.accessControlAllowOrigin] = nil
                fields[.accessControlAllowCredentials] = nil
                if let origin = request?.headerFields[.origin], corsOrigins.contains(origin) {
                    fields[.accessControlAllowOrigin] = origin
                    fields[.vary] = fields[.vary].map { $0 + ", Origin" } ?? "Origin"
                }
            }
        }
    }
#endif
