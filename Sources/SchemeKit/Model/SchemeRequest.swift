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
    /// The HTTP head: method, scheme, authority, path (with query) and header fields.
    public var head: HTTPRequest
    /// The URL exactly as the engine gave it.
    public let url: URL
    /// The request body; ``SchemeRequestBody/empty`` for GET and HEAD.
    public var body: SchemeRequestBody
    /// The lowercased scheme, such as `app`.
    public let scheme: String
    /// The lowercased host, or an empty string when the URL has none (`app:///index.html`).
    public let host: String
    /// The port, when the URL names one.
    public let port: Int?
    /// The path as it appears in the URL, still percent-encoded; `/` when the URL has none.
    public let path: String
    /// The query string without its `?`, still percent-encoded, or `nil`.
    public let query: String?

    /// Creates a request from a URL.
    ///
    /// - Parameters:
    ///   - url: An absolute, hierarchical URL with no fragment.
    ///   - method: The HTTP method. Default: GET.
    ///   - headerFields: The request's header fields. Default: none.
    ///   - body: The request body. Default: ``SchemeRequestBody/empty``.
    /// - Throws: ``SchemeRequestError`` when the URL has no scheme, is not hierarchical
    ///   (`app:foo`) or carries a fragment.
    public init(
        url: URL,
        method: HTTPRequest.Method = .get,
        headerFields: HTTPFields = [:],
        body: SchemeRequestBody = .empty
    ) throws(SchemeRequestError) {
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
        let host = (components.percentEncodedHost ?? "").lowercased()
        let path = rawPath.isEmpty ? "/" : rawPath
        let query = components.percentEncodedQuery
        let lowerScheme = scheme.lowercased()
        var authority = host
        if let port = components.port { authority += ":\(port)" }
        self.head = HTTPRequest(
            method: method,
            scheme: lowerScheme,
            authority: authority,
            path: query.map { "\(path)?\($0)" } ?? path,
            headerFields: headerFields
        )
        self.url = url
        self.body = body
        self.scheme = lowerScheme
        self.host = host
        self.port = components.port
        self.path = path
        self.query = query
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
        if string.contains("#") { throw .fragmentNotAllowed(string) }
        guard let url = URL(string: string) else { throw .malformedURL(string) }
        try self.init(url: url, method: method, headerFields: headerFields, body: body)
    }

    /// The request method.
    public var method: HTTPRequest.Method { head.method }

    /// The request's header fields.
    public var headerFields: HTTPFields {
        get { head.headerFields }
        set { head.headerFields = newValue }
    }

    /// The path's last component's extension, lowercased, without the dot; empty when none.
    public var pathExtension: String {
        guard let lastSlash = path.lastIndex(of: "/") else { return "" }
        let name = path[path.index(after: lastSlash)...]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }
}
