/// The hosts a ``NetworkFallbackHandler`` (or a ``Preloader``) may fetch from when the host comes
/// from the request: what the app names, so that a page — or markup injected into it — cannot make
/// the app fetch `app://10.0.0.5/admin` or `app://169.254.169.254/…` natively, past the browser's
/// CORS and Local Network Access checks.
///
/// ```swift
/// let network = NetworkFallbackHandler(allowedHosts: ["api.example.com", "*.cdn.example"])
/// ```
///
/// ## Patterns
/// - `api.example.com`: that name (case-insensitive; a trailing dot ignored).
/// - `*.cdn.example`: every name below `cdn.example` (`a.cdn.example`, `a.b.cdn.example`), not
///   `cdn.example` itself.
/// - `*`: any name (never an IP literal): the open fallback of old, without private networks.
/// - `203.0.113.9`, `::1` or `[::1]`: that IP address, compared as an address (`[0:0::1]` is
///   `::1`). An IP literal in a URL is reached only when listed so, whatever else is listed.
///
/// ## Private addresses
/// A name is resolved (`getaddrinfo`) before anything is sent; when any of its addresses is not
/// public — loopback, a private or shared network, link-local, multicast, unspecified or reserved,
/// IPv4-mapped and NAT64 forms included (see the list on `NetworkAddress`) — the request is refused
/// unless that address is itself listed as an IP literal. Over `http` the connection then goes to
/// the address that was checked, with the name in `Host`, so a second lookup cannot answer
/// differently (DNS rebinding). Over `https` the client looks the name up again and the TLS
/// certificate must be valid for the name, which a host the page's DNS rebinds to cannot present.
///
/// ## What it does not govern
/// A destination the app names in its configuration is reached as given: the origin of
/// ``NetworkFallbackHandler/init(origin:client:forwarding:configuration:)`` (`--fallback`), a
/// ``NetworkRewriteRule`` with a `host` or a `connectAddress`, or set for a host by
/// ``NetworkRewriter/setRule(_:scheme:host:)``. Ports are not part of a pattern: the port comes from
/// the rewrite rule (a request's own port is kept only for `http` and `https` URLs).
///
/// A refused request is answered `403` with a body that names the rule and a
/// ``SchemeResponse/refusalReason`` (``NetworkFallbackError``), is counted in
/// ``NetworkFallbackMetrics/refusedHosts``, and is never fetched.
public struct NetworkAllowedHosts: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    private enum Entry: Hashable {
        case name(String)
        case subdomains(of: String)
        case anyName
        case address(NetworkAddress)
    }

    private let entries: [Entry]

    /// The patterns, as given.
    public let patterns: [String]

    /// Allows the hosts `patterns` match (see the type's documentation).
    ///
    /// - Precondition: each pattern is a host name, `*.` and a host name, `*`, or an IP literal;
    ///   no scheme, port or path.
    public init(_ patterns: [String]) {
        self.patterns = patterns
        self.entries = patterns.map { pattern in
            guard let entry = Self.entry(pattern) else {
                preconditionFailure(
                    "NetworkAllowedHosts: '\(pattern)' is not a host name, '*.' and a host name, '*', or an IP address")
            }
            return entry
        }
    }

    /// The patterns that are valid of `patterns`, the others left out: for a host taken from a
    /// URL the app gave (an origin), which needs no precondition to fail on.
    package init(validOf patterns: [String]) {
        let valid = patterns.compactMap { pattern in Self.entry(pattern).map { (pattern, $0) } }
        self.patterns = valid.map(\.0)
        self.entries = valid.map(\.1)
    }

    /// Allows the hosts the patterns match: `["api.example.com", "*.cdn.example"]`.
    public init(arrayLiteral patterns: String...) {
        self.init(patterns)
    }

    /// The patterns, comma-separated.
    public var description: String { patterns.joined(separator: ", ") }

    private static func entry(_ pattern: String) -> Entry? {
        if let address = NetworkAddress(literal: pattern) { return .address(address) }
        let name = normalized(pattern)
        if name == "*" { return .anyName }
        if name.hasPrefix("*.") {
            let suffix = String(name.dropFirst(2))
            return isHostName(suffix) ? .subdomains(of: suffix) : nil
        }
        return isHostName(name) ? .name(name) : nil
    }

    /// Lowercased, without a trailing dot.
    static func normalized(_ host: String) -> String {
        let lower = host.lowercased()
        return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }

    /// Letters, digits, `-`, `_` and dots between non-empty labels (what a URL's host may be
    /// after IDNA; percent-encoded hosts are not names).
    private static func isHostName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty
                && label.utf8.allSatisfy { byte in
                    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                        || byte == UInt8(ascii: "_")
                }
        }
    }

    /// Whether a URL's host is allowed by name (a name) or by address (an IP literal); addresses
    /// a name resolves to are checked with ``lists(_:)``.
    package func allows(host: String) -> Bool {
        if let address = NetworkAddress(literal: host) { return lists(address) }
        let name = Self.normalized(host)
        guard Self.isHostName(name) else { return false }
        return entries.contains { entry in
            switch entry {
            case .name(let listed): listed == name
            case .subdomains(let suffix): name.hasSuffix("." + suffix)
            case .anyName: true
            case .address: false
            }
        }
    }

    /// Whether `address` is listed as an IP literal.
    package func lists(_ address: NetworkAddress) -> Bool {
        entries.contains { $0 == .address(address) }
    }
}
