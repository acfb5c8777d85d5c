public import SchemeKit

/// A composable test on a `SchemeRequest`: by scheme, host, path, path prefix, extension,
/// header or method, combined with `&&`, `||` and `!`.
///
/// Matchers gate stub handlers (see ``StubHandler``) so a chain can answer some requests from a
/// stub and let the rest fall through, and they describe themselves for test failure messages.
///
/// ```swift
/// let images = RequestMatcher.pathExtension("png") || .pathExtension("jpg")
/// let api = .host("localhost") && .pathPrefix("/api") && !.method(.delete)
/// let stub = StubHandler(matching: images, mimeType: "image/png", body: pngBytes)
/// #expect(api.matches(try SchemeRequest("app://localhost/api/users")))
/// ```
///
/// Comparisons of scheme, host, extension and header names are case-insensitive; paths are
/// compared as they appear in the URL (percent-encoded), case-sensitively.
public struct RequestMatcher: Sendable, CustomStringConvertible {
    let test: @Sendable (SchemeRequest) -> Bool

    /// How the matcher reads, such as `pathExtension(png) || pathExtension(jpg)`.
    public let description: String

    /// Creates a matcher from a predicate.
    ///
    /// - Parameters:
    ///   - description: How the matcher reads in failure messages.
    ///   - test: Returns whether a request matches.
    public init(_ description: String, _ test: @escaping @Sendable (SchemeRequest) -> Bool) {
        self.description = description
        self.test = test
    }

    /// Whether `request` matches.
    public func matches(_ request: SchemeRequest) -> Bool { test(request) }

    /// Whether `request` matches; the same as ``matches(_:)``.
    package func callAsFunction(_ request: SchemeRequest) -> Bool { test(request) }

    /// Matches every request.
    public static let any = RequestMatcher("any") { _ in true }

    /// Matches requests whose scheme is `scheme` (case-insensitive).
    public static func scheme(_ scheme: String) -> RequestMatcher {
        let scheme = scheme.lowercased()
        return RequestMatcher("scheme(\(scheme))") { $0.scheme == scheme }
    }

    /// Matches requests for `host` (case-insensitive).
    public static func host(_ host: String) -> RequestMatcher {
        let host = host.lowercased()
        return RequestMatcher("host(\(host))") { $0.host == host }
    }

    /// Matches requests whose path (without the query) is exactly `path`.
    public static func path(_ path: String) -> RequestMatcher {
        RequestMatcher("path(\(path))") { $0.path == path }
    }

    /// Matches requests whose path is under `prefix` by whole segments, as the registry routes:
    /// `/api` matches `/api` and `/api/users`, not `/apix`. A prefix ending in `/` matches any
    /// path that starts with it.
    public static func pathPrefix(_ prefix: String) -> RequestMatcher {
        RequestMatcher("pathPrefix(\(prefix))") { request in
            let path = request.path
            guard path.hasPrefix(prefix) else { return false }
            if prefix.hasSuffix("/") { return true }
            let rest = path.utf8.dropFirst(prefix.utf8.count)
            return rest.isEmpty || rest.first == UInt8(ascii: "/")
        }
    }

    /// Matches requests whose path extension is one of `extensions` (case-insensitive, no dot).
    public static func pathExtension(_ extensions: String...) -> RequestMatcher {
        let set = Set(extensions.map { $0.lowercased().drop { $0 == "." } }.map(String.init))
        return RequestMatcher("pathExtension(\(set.sorted().joined(separator: ",")))") {
            set.contains($0.pathExtension)
        }
    }

    /// Matches requests that carry the header `name`; when `value` is given, one of the field's
    /// values must equal it (case-insensitive).
    public static func header(_ name: HTTPField.Name, _ value: String? = nil) -> RequestMatcher {
        guard let value else {
            return RequestMatcher("header(\(name))") { $0.headerFields[name] != nil }
        }
        let lower = value.lowercased()
        return RequestMatcher("header(\(name): \(value))") { request in
            request.headerFields[values: name].contains { $0.lowercased() == lower }
        }
    }

    /// Matches requests whose header `name` contains `fragment` (case-insensitive), such as an
    /// `Accept` that mentions `image/`.
    public static func header(_ name: HTTPField.Name, containing fragment: String) -> RequestMatcher {
        let lower = fragment.lowercased()
        return RequestMatcher("header(\(name) ~ \(fragment))") { request in
            request.headerFields[values: name].contains { $0.lowercased().contains(lower) }
        }
    }

    /// Matches requests with the method `method`.
    public static func method(_ method: HTTPRequest.Method) -> RequestMatcher {
        RequestMatcher("method(\(method.rawValue))") { $0.method == method }
    }

    /// Matches requests both matchers match.
    public static func && (lhs: RequestMatcher, rhs: RequestMatcher) -> RequestMatcher {
        RequestMatcher("(\(lhs) && \(rhs))") { lhs.test($0) && rhs.test($0) }
    }

    /// Matches requests either matcher matches.
    public static func || (lhs: RequestMatcher, rhs: RequestMatcher) -> RequestMatcher {
        RequestMatcher("(\(lhs) || \(rhs))") { lhs.test($0) || rhs.test($0) }
    }

    /// Matches requests `matcher` does not match.
    public static prefix func ! (matcher: RequestMatcher) -> RequestMatcher {
        RequestMatcher("!\(matcher)") { !matcher.test($0) }
    }
}
