public import Foundation
public import HTTPTypes

/// Which recorded entry answers a request: the rules of a ``HARReplayHandler``.
///
/// ## Which entries match
/// An entry matches a request when all of these hold:
/// - the **method** is the same (a HEAD with no HEAD entry uses the GET entries, head only);
/// - the **URL** names the same resource: host, port (a scheme's default port left out), path and
///   query parameters, each percent-decoded; the query's order counts only without
///   ``ignoresQueryOrder``, the scheme only without ``ignoresScheme``; with an ``origin`` other
///   than ``Origin/request``, the request's scheme, host and port are first replaced by that
///   origin's, so the request is matched by path and query alone;
/// - every header of ``headers`` has the same value(s) in the request and the entry;
/// - with ``matchesRequestBody``, when both the request and the entry have a body, the bodies are
///   equal — bytes, or the same multipart body with another boundary, or the same form when the
///   entry recorded only `params` (Playwright's rule: a side with no body does not disqualify);
/// - a **range request** (`Range` on GET/HEAD) matches 200 entries (the range is cut from the
///   recorded body) and 206 entries recorded for the very same `Range`; a request without
///   `Range` never gets a 206 entry;
/// - a 304 entry only answers a conditional request (`If-None-Match` or `If-Modified-Since`),
///   and, when the request has `If-None-Match` and the entry a tag (its `ETag`, or the
///   `If-None-Match` it was recorded for), only one that names that tag.
///
/// ## Which entry wins
/// When several match, as Playwright chooses, refined: an entry with a real status before one
/// recorded as a network failure; one with the request's own scheme before another (when the
/// scheme is ignored); for a range request a 200 before a 206; then the entry whose request
/// headers match the request's best (the most `name: value` pairs in common, names compared
/// case-insensitively); then the first in the file.
public struct HARMatching: Sendable, Hashable {
    /// Whether the scheme is left out of the URL comparison, so `app://example.com/a` finds an
    /// entry recorded as `https://example.com/a` (browsers record https; engines ask with the
    /// app's scheme). Default: `true`.
    public var ignoresScheme: Bool
    /// Whether query parameters match in any order (`?a=1&b=2` finds `?b=2&a=1`). Default: `true`.
    public var ignoresQueryOrder: Bool
    /// Whether request bodies must be equal (for POST and every method with a body). Default: `true`.
    public var matchesRequestBody: Bool
    /// Headers whose values must be equal in the request and the entry (a missing header equals
    /// only a missing one), such as `Accept-Language` or `Authorization`. Default: none.
    public var headers: [HTTPField.Name]
    /// The origin a request is matched on. Default: ``Origin/request``, the request's own.
    public var origin: Origin

    /// The scheme, host and port a request is matched on.
    public enum Origin: Sendable, Hashable {
        /// The request's own: `app://localhost/a.js` finds entries of host `localhost`.
        case request
        /// The origin of the HAR's page: that of the first entry of the first page
        /// (`log.pages[0]`), or of the first entry when the file lists no page. A request is
        /// matched by path and query as if the page had made it there: `app://localhost/a.js?v=1`
        /// finds `http://127.0.0.1:8000/a.js?v=1` in a HAR a browser recorded from
        /// `http://127.0.0.1:8000/`. Entries of other origins (a CDN's) are never matched.
        case page
        /// This origin's scheme, host and port, such as `URL(string: "http://127.0.0.1:8000")!`.
        case fixed(URL)
    }

    /// Creates matching rules; the defaults are documented on each property.
    public init(
        ignoresScheme: Bool = true, ignoresQueryOrder: Bool = true, matchesRequestBody: Bool = true,
        headers: [HTTPField.Name] = [], origin: Origin = .request
    ) {
        self.ignoresScheme = ignoresScheme
        self.ignoresQueryOrder = ignoresQueryOrder
        self.matchesRequestBody = matchesRequestBody
        self.headers = headers
        self.origin = origin
    }
}
