package import HTTPTypes

/// Response headers set or removed by path: what a host that cannot configure headers needs
/// (cross-origin isolation for `SharedArrayBuffer`, a Content Security Policy, `Cache-Control`
/// per kind of file).
///
/// Apply it to any handler with ``SchemeHandler/headerPolicy(_:)``. Rules run in order for every
/// response head the handler writes (every status, 304s and 404s included), so a later rule for
/// the same field wins over an earlier one.
///
/// ```swift
/// let policy = HeaderPolicy.crossOriginIsolation()
///     + HeaderPolicy([
///         HeaderRule(PathPattern("/**/*.{js,css}")!, .cacheControl, "max-age=31536000, immutable"),
///         HeaderRule(PathPattern("/**")!, .server, nil),
///     ])
/// let files = LocalFileHandler(root: root).headerPolicy(policy)
/// ```
public struct HeaderPolicy: Sendable, Hashable {
    /// The rules, applied in order.
    public var rules: [HeaderRule]

    /// Creates a policy from rules, applied in order.
    public init(_ rules: [HeaderRule] = []) {
        self.rules = rules
    }

    /// Whether the policy has no rules.
    package var isEmpty: Bool { rules.isEmpty }

    /// The rules whose pattern matches `path`, a percent-decoded path (a request's normalised
    /// path), in order.
    package func rules(for path: String) -> [HeaderRule] {
        rules.filter { $0.pattern.matches(decodedPath: path) }
    }

    /// Applies the rules for `path` to `fields`.
    ///
    /// - Returns: Whether a rule changed `Content-Type` (so a response's MIME type must be read again).
    @discardableResult
    package func apply(to fields: inout HTTPFields, path: String) -> Bool {
        Self.apply(rules(for: path), to: &fields)
    }

    /// Applies `rules` (already chosen for a path) to `fields`; see `apply(to:path:)`.
    package static func apply(_ rules: [HeaderRule], to fields: inout HTTPFields) -> Bool {
        var contentTypeChanged = false
        for rule in rules where rule.name != .contentLength && rule.name != .transferEncoding {
            fields[rule.name] = rule.value
            if rule.name == .contentType { contentTypeChanged = true }
        }
        return contentTypeChanged
    }

    /// The rules of both policies, `lhs`'s first.
    public static func + (lhs: HeaderPolicy, rhs: HeaderPolicy) -> HeaderPolicy {
        HeaderPolicy(lhs.rules + rhs.rules)
    }

    /// Cross-origin isolation, so pages can use `SharedArrayBuffer` and high-resolution timers:
    /// `Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Embedder-Policy: require-corp`.
    ///
    /// Under `require-corp`, every cross-origin subresource must itself send
    /// `Cross-Origin-Resource-Policy` (or be fetched with CORS).
    ///
    /// - Parameter pattern: The paths. Default: `/**`, every response.
    public static func crossOriginIsolation(for pattern: PathPattern = PathPattern("/**")!) -> HeaderPolicy {
        HeaderPolicy([
            HeaderRule(pattern, .crossOriginOpenerPolicy, "same-origin"),
            HeaderRule(pattern, .crossOriginEmbedderPolicy, "require-corp"),
        ])
    }

    /// A `Content-Security-Policy` of `value` for `pattern`.
    ///
    /// - Parameters:
    ///   - value: The policy, such as `default-src 'self'`.
    ///   - pattern: The paths. Default: `/**`.
    public static func contentSecurityPolicy(_ value: String, for pattern: PathPattern = PathPattern("/**")!)
        -> HeaderPolicy
    {
        HeaderPolicy([HeaderRule(pattern, .contentSecurityPolicy, value)])
    }

    /// A `Cache-Control` of `value` for `pattern`, such as `max-age=31536000, immutable` for
    /// `/assets/**`.
    public static func cacheControl(_ value: String, for pattern: PathPattern) -> HeaderPolicy {
        HeaderPolicy([HeaderRule(pattern, .cacheControl, value)])
    }
}

extension HTTPField.Name {
    /// `Cross-Origin-Opener-Policy`.
    static let crossOriginOpenerPolicy = HTTPField.Name("Cross-Origin-Opener-Policy")!
    /// `Cross-Origin-Embedder-Policy`.
    static let crossOriginEmbedderPolicy = HTTPField.Name("Cross-Origin-Embedder-Policy")!
}
