/// Why a URL could not become a ``SchemeRequest``.
///
/// Engines hand over whatever the page asked for; a malformed URL must produce this clear error
/// (and, over HTTP, a 400) instead of a crash in a handler.
public enum SchemeRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The string is not a URL at all.
    case malformedURL(String)
    /// The URL has no scheme.
    case missingScheme(String)
    /// The URL is opaque (`app:foo`): SchemeKit serves hierarchical URLs only.
    case notHierarchical(String)
    /// The URL carries a fragment (`#…`), which never belongs in a request.
    case fragmentNotAllowed(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .malformedURL(let url): "not a URL: \(url.prefix(200))"
        case .missingScheme(let url): "URL has no scheme: \(url.prefix(200))"
        case .notHierarchical(let url): "URL is not hierarchical (expected scheme://host/path): \(url.prefix(200))"
        case .fragmentNotAllowed(let url): "URL carries a fragment, which a request never has: \(url.prefix(200))"
        }
    }
}
