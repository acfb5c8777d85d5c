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
    ///
    /// The `--header` rules (``ServeConfiguration/headerRules``) are applied last, to every
    /// response, the server's own answers included, on the request's normalised path (the path
    /// the file handler serves: `//index.html` is `/index.html`), so a rule can set or remove
    /// any field the server adds (`X-Content-Type-Options`, `Cross-Origin-Resource-Policy`, CORS,
    /// `Vary`), and no spelling of a path escapes its rules.
    struct ResponsePlanner: Sendable {
        let corsOrigins: Set<String>
        /// `<scheme>://<app-host>`: the page's origin as the handlers see it.
        let appOrigin: URL?
        let gzip: Bool
        let liveReloadScript: Data?
        let headerRules: [HeaderRule]

        /// The rules that apply to one request, and a key naming that set (which rules, by index:
        /// two requests with equal keys get equal fields from the rules), or `nil` past 64 rules.
        struct Rules: Sendable {
            var list: [HeaderRule] = []
            var key: UInt64? = 0

            static let none = Rules()
        }

        init(configuration: ServeConfiguration) {
            corsOrigins = Set(configuration.corsOrigins)
            appOrigin = URL(string: "\(configuration.scheme)://\(configuration.appHost)")
            gzip = configuration.gzip
            liveReloadScript = configuration.watch ? Data(LiveReload.script.utf8) : nil
            headerRules = configuration.headerRules
        }

        /// The rules for a request target (`/a/b.js?x`), matched on its normalised path.
        func rules(forTarget target: String) -> Rules {
            guard !headerRules.isEmpty else { return .none }
            let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let normalised = SchemeRequest.normalize(path: String(path))
            var rules = Rules()
            for (index, rule) in headerRules.enumerated() where rule.pattern.matches(decodedPath: normalised) {
                rules.list.append(rule)
                rules.key = index < 64 ? rules.key.map { $0 | (1 << UInt64(index)) } : nil
            }
            return rules
        }

        /// The plan for `response` to `request`.
        func plan(_ response: SchemeResponse, for request: HTTPRequest, rules: Rules) -> ResponsePlan {
            var plan = plan(response, for: request)
            if !rules.list.isEmpty { _ = HeaderPolicy.apply(rules.list, to: &plan.fields) }
            return plan
        }

        /// The plan for `response` to `request`, before the `--header` rules.
        private func plan(_ response: SchemeResponse, for request: HTTPRequest) -> ResponsePlan {
            var fields = response.headerFields
            ResponseTransforms.sanitise(&fields)
            // The server dates every response itself (one `Date`, RFC 9110 §6.6.1): a fallback
            // origin's, passed on by the network handler, would be a second.
            fields[.date] = nil
            if let location = fields[.location], let path = pathOnServer(location) { fields[.location] = path }
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
                ResponseTransforms.weakenETag(&fields)
            }
            if gzip, status == .ok, CompressibleContent.isCompressible(fields[.contentType]),
                !ResponseTransforms.forbidsTransformation(fields)
            {
                if fields[.contentEncoding] == nil, fields[.contentRange] == nil, request.headerFields[.range] == nil,
                    Self.acceptsGzip(request),
                    (fields[.contentLength].flatMap(Int.init) ?? Int.max) >= 256
                {
                    transforms.gzip = true
                    fields[.contentEncoding] = "gzip"
                    fields[.contentLength] = nil
                    ResponseTransforms.weakenETag(&fields)
                }
                ResponseTransforms.addVary("Accept-Encoding", to: &fields)
            }
            // A 304 carries the tag its 200 would have (RFC 9110 §15.4.5). That 200 is weak when this
            // server changes the body (gzip for a client that takes it, the live-reload script),
            // which the handler, answering the 304, does not know; a client without gzip gets the
            // file itself, under the handler's strong tag, whatever form its `If-None-Match` uses.
            if status == .notModified, liveReloadScript != nil || (gzip && Self.acceptsGzip(request)) {
                ResponseTransforms.matchValidatorForm(&fields, ifNoneMatch: request.headerFields[.ifNoneMatch])
            }
            return ResponsePlan(status: status, fields: fields, transforms: transforms)
        }

        /// Whether `request`'s `Accept-Encoding` allows gzip.
        static func acceptsGzip(_ request: HTTPRequest) -> Bool {
            request.headerFields[.acceptEncoding].map { AcceptEncoding($0).allows("gzip") } ?? false
        }

        /// A `Location` on the app's origin (`app://localhost/login`, from a handler or a
        /// ``NetworkFallbackHandler`` that moved the origin's own redirect there) as the same path
        /// on this server (`/login`): the browser knows the page by its `http://` URL. `nil` for
        /// any other location.
        func pathOnServer(_ location: String) -> String? {
            guard let appOrigin, let path = RedirectLocation.path(of: location, on: appOrigin) else { return nil }
            // One leading slash: `//evil.example/x` (or `/\evil.example`, which browsers read the
            // same) would be another host.
            return "/" + path.drop { $0 == "/" || $0 == "\\" }
        }

        /// A short plain-text answer of the server's own (400, 403, 500, 502), with the security
        /// headers and the `--header` rules.
        func plain(
            _ status: HTTPResponse.Status, _ message: String, for request: HTTPRequest?, rules: Rules = .none
        ) -> (ResponsePlan, Data) {
            var fields = HTTPFields()
            fields[.contentType] = "text/plain; charset=utf-8"
            fields[.contentLength] = String(message.utf8.count)
            addSecurityHeaders(&fields, request: request)
            if !rules.list.isEmpty { _ = HeaderPolicy.apply(rules.list, to: &fields) }
            let body = request?.method == .head ? Data() : Data(message.utf8)
            return (ResponsePlan(status: status, fields: fields, transforms: ResponseTransforms()), body)
        }

        /// The answer to a CORS preflight from a `--cors` origin (WHATWG Fetch, "CORS-preflight
        /// fetch"): `204` allowing GET and HEAD (what the server answers) and the header fields the
        /// browser asked for, kept 10 minutes; and `Access-Control-Allow-Private-Network` when
        /// asked (a public page reaching the loopback server in Chromium). `nil` for anything else:
        /// an `OPTIONS` from another origin, or without `Access-Control-Request-Method`, gets the
        /// handler chain's 405 and no CORS field, so the browser refuses the request.
        func preflight(for request: HTTPRequest, rules: Rules) -> ResponsePlan? {
            guard request.method == .options, !corsOrigins.isEmpty,
                let origin = request.headerFields[.origin], corsOrigins.contains(origin),
                request.headerFields[.accessControlRequestMethod] != nil
            else { return nil }
            var fields = HTTPFields()  // no Content-Length on a 204 (RFC 9110 §8.6)
            addSecurityHeaders(&fields, request: request)
            fields[.accessControlExposeHeaders] = nil
            fields[.accessControlAllowMethods] = "GET, HEAD"
            if let asked = request.headerFields[.accessControlRequestHeaders] {
                fields[.accessControlAllowHeaders] = asked
            }
            fields[.accessControlMaxAge] = "600"
            if request.headerFields[Self.requestPrivateNetwork]?.lowercased() == "true" {
                fields[Self.allowPrivateNetwork] = "true"
            }
            if !rules.list.isEmpty { _ = HeaderPolicy.apply(rules.list, to: &fields) }
            return ResponsePlan(status: .noContent, fields: fields, transforms: ResponseTransforms())
        }

        private static let requestPrivateNetwork = HTTPField.Name("Access-Control-Request-Private-Network")!
        private static let allowPrivateNetwork = HTTPField.Name("Access-Control-Allow-Private-Network")!

        private func addSecurityHeaders(_ fields: inout HTTPFields, request: HTTPRequest?) {
            fields[.crossOriginResourcePolicy] = "same-origin"
            fields[.xContentTypeOptions] = "nosniff"
            if !corsOrigins.isEmpty {
                fields[.accessControlAllowOrigin] = nil
                fields[.accessControlAllowCredentials] = nil
                fields[.accessControlExposeHeaders] = nil
                if let origin = request?.headerFields[.origin], corsOrigins.contains(origin) {
                    fields[.accessControlAllowOrigin] = origin
                    // What a range reader (a media player, pdf.js) and a revalidating script need
                    // beyond the CORS-safelisted fields.
                    fields[.accessControlExposeHeaders] = "Accept-Ranges, Content-Range, ETag"
                    ResponseTransforms.addVary("Origin", to: &fields)
                }
            }
        }
    }
#endif
