public import Foundation

/// The key an image is cached under: the URL's https equivalent, so the web view's
/// `app://cdn.example/a.png` and the native loader's `https://cdn.example/a.png` share one entry.
///
/// Normalisation:
/// - the scheme becomes `https`, whatever it was (`app`, `http`, `https`);
/// - the host is lowercased; user info is dropped;
/// - the default port is dropped: 443, and also 80 when the original scheme was `http`;
///   any other port is kept;
/// - the path stays as it is (percent-encoded, case kept); an empty path becomes `/`;
/// - the query is kept as it is; the fragment is dropped.
///
/// ```swift
/// ImageCacheKey(url: URL(string: "app://CDN.example:443/a.png?x=1#top")!).rawValue
/// // "https://cdn.example/a.png?x=1"
/// ```
///
/// The native side computes the same key with ``init(url:)`` and passes it to
/// ``ImageCache/put(_:mimeType:forKey:expiration:)``, so both sides agree.
public struct ImageCacheKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The normalised URL string.
    public let rawValue: String

    /// Uses `rawValue` as it is, without normalising it (for keys that are not URLs).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The key of `url`, normalised as described above. A URL that `URLComponents` cannot
    /// parse is used as it is.
    public init(url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            self.rawValue = url.absoluteString
            return
        }
        let originalScheme = components.scheme?.lowercased() ?? ""
        var key = "https://"
        key += (components.encodedHost ?? "").lowercased()
        if let port = components.port, port != 443, !(originalScheme == "http" && port == 80) {
            key += ":\(port)"
        }
        let path = components.percentEncodedPath
        key += path.isEmpty ? "/" : path
        if let query = components.percentEncodedQuery { key += "?\(query)" }
        self.rawValue = key
    }

    /// The key of `request`'s URL.
    public init(request: SchemeRequest) {
        self.init(url: request.url)
    }

    /// The normalised URL string.
    public var description: String { rawValue }
}
