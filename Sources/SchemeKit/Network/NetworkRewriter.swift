package import Foundation

/// Maps scheme requests to network URLs: `app://host/path?q` → `https://host/path?q` by default,
/// with rules per scheme, per host, or per scheme and host.
///
/// Lookup order: a rule for the request's scheme *and* host, then one for the host (any scheme),
/// then one for the scheme (any host), then ``defaultRule``. `http` and `https` URLs with no
/// matching rule are fetched as they are (so `preload(https://…)` and the engine's `app://…`
/// request meet on the same network URL).
///
/// ```swift
/// var rewriter = NetworkRewriter()
/// rewriter.setRule(NetworkRewriteRule(connectAddress: "203.0.113.9"), host: "api.example.com")
/// rewriter.setRule(NetworkRewriteRule(scheme: "http", host: "127.0.0.1", port: 8080), scheme: "dev")
/// ```
public struct NetworkRewriter: Sendable {
    private struct Key: Hashable {
        var scheme: String?
        var host: String?
    }

    private var rules: [Key: NetworkRewriteRule] = [:]

    /// The rule for requests no other rule matches. Default: `https`, same host and path.
    public var defaultRule: NetworkRewriteRule

    /// Creates a rewriter with only a default rule.
    ///
    /// - Parameter defaultRule: The fallback rule. Default: `NetworkRewriteRule()` (https).
    public init(defaultRule: NetworkRewriteRule = NetworkRewriteRule()) {
        self.defaultRule = defaultRule
    }

    /// Sets the rule for a scheme, a host, or both (case-insensitive); `nil` for both replaces
    /// ``defaultRule``.
    public mutating func setRule(_ rule: NetworkRewriteRule, scheme: String? = nil, host: String? = nil) {
        guard scheme != nil || host != nil else {
            defaultRule = rule
            return
        }
        rules[Key(scheme: scheme?.lowercased(), host: host?.lowercased())] = rule
    }

    /// The network target for a request.
    package struct Target: Sendable, Hashable {
        /// The URL to connect to (its host may be an IP address).
        package var url: URL
        /// The `Host` header to send when it differs from the URL's authority (IP direct
        /// connection), else `nil`.
        package var hostHeader: String?
        /// The URL as the origin knows it (scheme, real host, port, path, query): the identity used
        /// for coalescing and caching, independent of the IP the connection goes to.
        package var logicalURL: URL
        /// Whether the host is the request's own, kept by a rule that names no destination (the
        /// default rule, a rule for the scheme without a host or address, an `http`/`https` URL
        /// fetched as it is): then ``NetworkAllowedHosts`` decides. `false` when the app named the
        /// destination: a rule set for this host, or one with a `host` or a `connectAddress`.
        package var hostFromRequest: Bool
    }

    /// Rewrites `url`.
    ///
    /// - Returns: The target, or `nil` when `url` has no host to fetch from.
    package func target(for url: URL) -> Target? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let sourceScheme = components.scheme?.lowercased(),
            let sourceHost = components.encodedHost?.lowercased(), !sourceHost.isEmpty
        else { return nil }

        let rule: NetworkRewriteRule
        let namedByRule: Bool
        if let found = rules[Key(scheme: sourceScheme, host: sourceHost)] ?? rules[Key(scheme: nil, host: sourceHost)] {
            rule = found
            namedByRule = true
        } else if let found = rules[Key(scheme: sourceScheme, host: nil)] {
            rule = found
            namedByRule = false
        } else if sourceScheme == "http" || sourceScheme == "https" {
            rule = NetworkRewriteRule(scheme: sourceScheme, port: components.port)
            namedByRule = false
        } else {
            rule = defaultRule
            namedByRule = false
        }
        let hostFromRequest = !namedByRule && rule.host == nil && rule.connectAddress == nil

        let host = rule.host ?? sourceHost
        let port = rule.port.flatMap { $0 == Self.defaultPort(rule.scheme) ? nil : $0 }
        var logical = URLComponents()
        logical.scheme = rule.scheme
        logical.percentEncodedHost = host
        logical.port = port
        logical.percentEncodedPath = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        logical.percentEncodedQuery = components.percentEncodedQuery
        guard let logicalURL = logical.url else { return nil }

        guard let address = rule.connectAddress else {
            return Target(url: logicalURL, hostHeader: nil, logicalURL: logicalURL, hostFromRequest: hostFromRequest)
        }
        var direct = logical
        direct.percentEncodedHost = address.contains(":") && !address.hasPrefix("[") ? "[\(address)]" : address
        guard let directURL = direct.url else { return nil }
        let hostHeader = port.map { "\(host):\($0)" } ?? host
        return Target(
            url: directURL, hostHeader: hostHeader, logicalURL: logicalURL, hostFromRequest: hostFromRequest)
    }

    static func defaultPort(_ scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": 80
        case "https", "wss": 443
        default: nil
        }
    }
}
