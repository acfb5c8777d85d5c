import Foundation

/// A URL cut into the parts replay compares: scheme, host, port (the scheme's default left out),
/// path and query parameters, each percent-decoded.
struct HARURLParts: Sendable, Hashable {
    private(set) var scheme: String
    private(set) var host: String
    private(set) var port: Int?
    let path: String
    /// `name=value` per query parameter, decoded, in URL order.
    let query: [String]
    /// ``query`` sorted, for matching with query order ignored.
    let sortedQuery: [String]

    /// `nil` for a string that is not an absolute URL with a host or a path (`data:…`).
    init?(_ string: String) {
        guard let components = URLComponents(string: string), let scheme = components.scheme?.lowercased(),
            components.host != nil || components.percentEncodedPath.hasPrefix("/")
        else { return nil }
        self.scheme = scheme
        self.host = (components.host ?? "").lowercased()
        let defaultPort = ["http": 80, "https": 443, "ws": 80, "wss": 443][scheme]
        self.port = components.port == defaultPort ? nil : components.port
        let rawPath = components.percentEncodedPath
        self.path = rawPath.isEmpty ? "/" : (rawPath.removingPercentEncoding ?? rawPath)
        let query = (components.percentEncodedQuery ?? "").split(separator: "&").map { pair in
            pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                .map { String($0).removingPercentEncoding ?? String($0) }
                .joined(separator: "=")
        }
        self.query = query
        self.sortedQuery = query.sorted()
    }

    /// `scheme://host[:port]`.
    var origin: URL? {
        var components = URLComponents()
        components.scheme = scheme
        components.host = host
        components.port = port
        return components.url
    }

    /// The same path and query on `origin`'s scheme, host and port.
    func moved(to origin: HARURLParts) -> HARURLParts {
        var moved = self
        moved.scheme = origin.scheme
        moved.host = origin.host
        moved.port = origin.port
        return moved
    }

    /// Whether `other` names the same resource under `matching`'s rules (scheme and query order
    /// counted or ignored).
    func matches(_ other: HARURLParts, _ matching: HARMatching) -> Bool {
        host == other.host && port == other.port && path == other.path
            && (matching.ignoresScheme || scheme == other.scheme)
            && (matching.ignoresQueryOrder ? sortedQuery == other.sortedQuery : query == other.query)
    }
}
