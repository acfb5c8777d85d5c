public import Foundation
public import HTTPTypes

/// A request an engine hands to SchemeKit: the HTTP head, the original URL and the body.
///
/// `SchemeRequest` is a value type built on swift-http-types' `HTTPRequest`. The URL must be
/// hierarchical (`app://host/path`) and carry no fragment; anything else is rejected by the
/// initialiser with a ``SchemeRequestError`` rather than trapping later in a handler.
///
/// ```swift
/// let request = try SchemeRequest(url: URL(string: "app://localhost/index.html")!)
/// request.scheme   // "app"
/// request.host     // "localhost"
/// request.path     // "/index.html"
/// ```
public struct SchemeRequest: Sendable {
    /// Every part, in one object shared by copies (copy-on-write): a request is copied into each
    /// task and closure that answers it, and one reference costs one retain where ten fields cost
    /// ten.
    private var storage: Storage

    /// The parts of a request. `@unchecked Sendable`: ``head`` and ``body`` are only written
    /// through a request that holds the one reference (``SchemeRequest/uniqueStorage()``); every
    /// other field is immutable.
    private final class Storage: @unchecked Sendable {
        var head: HTTPRequest
        var body: SchemeRequestBody
        let scheme: String
        let host: String
        let port: Int?
        let path: String
        let query: String?
        let source: Source

        init(
            head: HTTPRequest, body: SchemeRequestBody, scheme: String, host: String, port: Int?, path: String,
            query: String?, source: Source
        ) {
            self.head = head
            self.body = body
            self.scheme = scheme
            self.host = host
            self.port = port
            self.path = path
            self.query = query
            self.source = source
        }

        func copy() -> Storage {
            Storage(
                head: head, body: body, scheme: scheme, host: host, port: port, path: path, query: query,
                source: source)
        }
    }

    /// The storage, copied first when it is shared.
    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// The HTTP head: method, scheme, authority, path (with query) and header fields.
    public var head: HTTPRequest {
        get { storage.head }
        set { uniqueStorage().head = newValue }
    }
    /// The URL exactly as the engine gave it.
    ///
    /// Requests made from parts (``init(scheme:authority:path:method:headerFields:body:)``) or
    /// from a string build this `URL` on first use of each copy, so the hot path that never
    /// reads it never pays for Foundation's parser. Reading it never traps: see
    /// `url(forAccepted:parts:parse:)`.
    public var url: URL {
        switch source {
        case .url(let url):
            url
        case .string(let string):
            Self.url(
                forAccepted: string,
                parts: SchemeURLParts(
                    scheme: scheme, host: host, port: port, authority: head.authority ?? host, path: path,
                    query: query, pathAndQuery: query.map { "\(path)?\($0)" } ?? path),
                parse: { URL(string: $0) })
        }
    }

    /// The `URL` of a string the fast parser accepted, never a trap.
    ///
    /// The fast parser accepts only ASCII strings in a subset of RFC 3986 that Foundation's
    /// `URL(string:)` accepts unchanged (checked differentially against Foundation by the fuzz
    /// target `Fuzz/Sources/FuzzURL`). Should a Foundation version disagree anyway, the URL is
    /// rebuilt from the parts already validated, `scheme://authority/path?query` (or
    /// `scheme:/path?query` without an authority); should that be refused too, the URL holds the
    /// scheme alone. Both forms name the same resource: every part was validated by the fast parser.
    ///
    /// - Parameter parse: Foundation's parser; a parameter so that tests can make it disagree.
    static func url(forAccepted string: String, parts: SchemeURLParts, parse: (String) -> URL?) -> URL {
        if let url = parse(string) { return url }
        let hasAuthority = string.utf8.dropFirst(parts.scheme.utf8.count + 1).starts(with: "//".utf8)
        let rebuilt =
            hasAuthority
            ? "\(parts.scheme)://\(parts.authority)\(parts.pathAndQuery)" : "\(parts.scheme):\(parts.pathAndQuery)"
        if let url = parse(rebuilt) { return url }
        var components = URLComponents()
        components.scheme = parts.scheme
        return components.url ?? URL(fileURLWithPath: "/")
    }
    /// The request body; ``SchemeRequestBody/empty`` for GET and HEAD.
    public var body: SchemeRequestBody {
        get { storage.body }
        set { uniqueStorage().body = newValue }
    }
    /// The lowercased scheme, such as `app`.
    public var scheme: String { storage.scheme }
    /// The lowercased host, or an empty string when the URL has none (`app:///index.html`).
    public var host: String { storage.host }
    /// The port, when the URL names one.
    public var port: Int? { storage.port }
    /// The path as it appears in the URL, still percent-encoded; `/` when the URL has none.
    public var path: String { storage.path }
    /// The query string without its `?`, still percent-encoded, or `nil`.
    public var query: String? { storage.query }

    private var source: Source { storage.source }

    /// Where ``url`` comes from: the engine's `URL` value, or the string it is built from.
    private enum Source: Sendable {
        case url(URL)
        case string(String)
    }

    /// Creates a request from a URL.
    ///
    /// - Parameters:
    ///   - url: An absolute, hierarchical URL with no fragment.
    ///   - method: The HTTP method. Default: GET.
    ///   - headerFields: The request's header fields. Default: none.
    ///   - body: The request body. Default: ``SchemeRequestBody/empty``.
    /// - Throws: ``SchemeRequestError`` when the URL has no scheme, is not hierarchical
    ///   (`app:foo`), carries a fragment, or has a host longer than 2048 bytes (which Foundation's
    ///   `URLComponents` does not read).
    public init(
        url: URL,
        method: HTTPRequest.Method = .get,
        headerFields: HTTPFields = [:],
        body: SchemeRequestBody = .empty
    ) throws(SchemeRequestError) {
        var outcome = SchemeURLParts.Outcome.unsupported
        if url.baseURL == nil { outcome = SchemeURLParts.parse(url.absoluteString) }
        let parts: SchemeURLParts
        switch outcome {
        case .parsed(let fast): parts = fast
        case .rejected(let error): throw error
        case .unsupported: parts = try Self.foundationParts(of: url)
        }
        self.init(parts: parts, source: .url(url), method: method, headerFields: headerFields, body: body)
    }

    /// Creates a request from a URL string; see ``init(url:method:headerFields:body:)``.
    ///
    /// - Throws: ``SchemeRequestError/malformedURL(_:)`` when the string is not a URL, and the
    ///   errors of ``init(url:method:headerFields:body:)``.
    public init(
        _ string: String,
        method: HTTPRequest.Method = .get,
        headerFields: HTTPFields = [:],
        body: SchemeRequestBody = .empty
    ) throws(SchemeRequestError) {
        switch SchemeURLParts.parse(string) {
        case .parsed(let parts):
            self.init(parts: parts, source: .string(string), method: method, headerFields: headerFields, body: body)
            return
        case .rejected(let error):
            throw error
        case .unsupported:
            break
        }
        if string.contains("#") { throw .fragmentNotAllowed(string) }
        guard let url = URL(string: string) else { throw .malformedURL(string) }
        try self.init(url: url, method: method, headerFields: headerFields, body: body)
    }

    /// Creates a request from the parts an engine already has, such as an HTTP request's
    /// scheme, authority and target, without going through `URL`.
    ///
    /// The result is the same as `SchemeRequest("\(scheme)://\(authority)\(path)")`: the same
    /// validation, lowercased scheme and host, percent-encoding kept as given. Common URLs are
    /// parsed by a single pass over the bytes; ``url`` is built only when read.
    ///
    /// ```swift
    /// let request = try SchemeRequest(scheme: "app", authority: "localhost", path: "/a.js?v=2")
    /// request.path   // "/a.js"
    /// request.query  // "v=2"
    /// ```
    ///
    /// - Parameters:
    ///   - scheme: The scheme, such as `app` (any case).
    ///   - authority: `host` or `host:port`; may be empty (`app:///index.html`).
    ///   - path: The percent-encoded path with its query, starting with `/`; empty means `/`.
    ///   - method: The HTTP method. Default: GET.
    ///   - headerFields: The request's header fields. Default: none.
    ///   - body: The request body. Default: ``SchemeRequestBody/empty``.
    /// - Throws: ``SchemeRequestError/missingScheme(_:)`` for an empty scheme,
    ///   ``SchemeRequestError/notHierarchical(_:)`` when the path does not start with `/`,
    ///   ``SchemeRequestError/malformedURL(_:)`` when the scheme or authority holds a delimiter
    ///   (`:`, `/`, `?`, `#` in the scheme; `/`, `?`, `#` in the authority) or the whole is not a
    ///   URL, and ``SchemeRequestError/fragmentNotAllowed(_:)`` for a `#` in the path.
    public init(
        scheme: String,
        authority: String,
        path: String,
        method: HTTPRequest.Method = .get,
        headerFields: HTTPFields = [:],
        body: SchemeRequestBody = .empty
    ) throws(SchemeRequestError) {
        let string = "\(scheme)://\(authority)\(path)"
        guard !scheme.isEmpty else { throw .missingScheme(string) }
        guard !scheme.utf8.contains(where: { Self.isDelimiter($0) || $0 == UInt8(ascii: ":") }),
            !authority.utf8.contains(where: Self.isDelimiter)
        else { throw .malformedURL(string) }
        guard path.isEmpty || path.utf8.first == UInt8(ascii: "/") else { throw .notHierarchical(string) }
        try self.init(string, method: method, headerFields: headerFields, body: body)
    }

    /// `uri` without its fragment (`app://localhost/a.js#x` → `app://localhost/a.js`): what an
    /// engine adapter asks the registry for when the engine hands over a URL as the page wrote it,
    /// as a browser drops the fragment before it requests anything (WHATWG Fetch). WebKitGTK and
    /// Firefox's BiDi keep it (`<video src="clip.webm#t=1">`, `fetch('a.js#x')`).
    package static func droppingFragment(_ uri: String) -> String {
        guard let hash = uri.utf8.firstIndex(of: UInt8(ascii: "#")) else { return uri }
        return String(uri[..<hash])
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    private init(
        parts: SchemeURLParts,
        source: Source,
        method: HTTPRequest.Method,
        headerFields: HTTPFields,
        body: SchemeRequestBody
    ) {
        storage = Storage(
            head: HTTPRequest(
                method: method,
                scheme: parts.scheme,
                authority: parts.authority,
                path: parts.pathAndQuery,
                headerFields: headerFields
            ),
            body: body, scheme: parts.scheme, host: parts.host, port: parts.port, path: parts.path,
            query: parts.query, source: source)
    }

    /// The parts as Foundation's `URLComponents` sees them: the path for URLs outside the fast
    /// parser's subset (IP literals, userinfo, characters needing escapes).
    private static func foundationParts(of url: URL) throws(SchemeRequestError) -> SchemeURLParts {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw .malformedURL(url.absoluteString)
        }
        guard let scheme = components.scheme, !scheme.isEmpty else {
            throw .missingScheme(url.absoluteString)
        }
        if components.fragment != nil || url.absoluteString.contains("#") {
            throw .fragmentNotAllowed(url.absoluteString)
        }
        // Hierarchical means "scheme://authority/path" or "scheme:/path": an opaque URL such as
        // `app:foo` has neither an authority nor a path starting with a slash.
        let rawPath = components.percentEncodedPath
        let hasAuthority = url.absoluteString.dropFirst(scheme.count + 1).hasPrefix("//")
        guard hasAuthority || rawPath.hasPrefix("/") else {
            throw .notHierarchical(url.absoluteString)
        }
        // Foundation's `URLComponents` drops a host over 2048 bytes that `URL` still reads: refuse
        // it rather than route the request as if it had no host.
        if components.encodedHost == nil, let urlHost = url.host(percentEncoded: true), !urlHost.isEmpty {
            throw .malformedURL(url.absoluteString)
        }
        // The host as written (`encodedHost`): an IDNA A-label stays `xn--bcher-kva.example`, as
        // a browser's `location.host` has it; `percentEncodedHost` would turn it into the
        // percent-encoded U-label (and drop one that is not valid Punycode).
        let host = (components.encodedHost ?? "").lowercased()
        // The fast parser's limit too: a host `percentEncodedHost` drops is one nobody routes on.
        if host.utf8.count > SchemeURLParts.maximumHostLength { throw .malformedURL(url.absoluteString) }
        let path = rawPath.isEmpty ? "/" : rawPath
        let query = components.percentEncodedQuery
        var authority = host
        if let port = components.port { authority += ":\(port)" }
        return SchemeURLParts(
            scheme: scheme.lowercased(),
            host: host,
            port: components.port,
            authority: authority,
            path: path,
            query: query,
            pathAndQuery: query.map { "\(path)?\($0)" } ?? path
        )
    }

    /// The request method.
    public var method: HTTPRequest.Method { storage.head.method }

    /// The request's header fields.
    public var headerFields: HTTPFields {
        get { storage.head.headerFields }
        set { uniqueStorage().head.headerFields = newValue }
    }

    /// The path's last component's extension, lowercased, without the dot; empty when none.
    public var pathExtension: String {
        guard let lastSlash = path.lastIndex(of: "/") else { return "" }
        let name = path[path.index(after: lastSlash)...]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }
}
