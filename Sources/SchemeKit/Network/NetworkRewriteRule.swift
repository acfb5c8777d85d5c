/// Where a scheme URL goes on the network: the target scheme, host and port, and optionally an
/// IP address to connect to instead of resolving the host.
///
/// ```swift
/// // app://api.example.com/v1 → https://api.example.com/v1 (the default)
/// NetworkRewriteRule()
/// // app://cdn.example.com/a.js → http://10.0.0.7:8080/a.js with `Host: cdn.example.com`
/// NetworkRewriteRule(scheme: "http", port: 8080, connectAddress: "10.0.0.7")
/// ```
public struct NetworkRewriteRule: Sendable, Hashable {
    /// The scheme to fetch with. Default: `https`.
    public var scheme: String
    /// The host to fetch from; `nil` keeps the request's host. Default: `nil`.
    public var host: String?
    /// The port; `nil` uses the target scheme's default port. Default: `nil`.
    public var port: Int?
    /// An IP address to connect to instead of resolving the (rewritten) host — "IP direct
    /// connection", which skips DNS. The original host is kept in the `Host` header, so virtual
    /// hosting on the server still works. Default: `nil` (resolve the host normally).
    ///
    /// Over HTTPS the TLS certificate is issued for the host, not the IP; the client must validate
    /// it against the host (``URLSessionHTTPClient`` cannot: use this over HTTPS with a client that
    /// can).
    public var connectAddress: String?

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - scheme: The target scheme. Default: `https`.
    ///   - host: A replacement host. Default: keep the request's host.
    ///   - port: The target port. Default: the scheme's default.
    ///   - connectAddress: An IP address to connect to, keeping the host in `Host`. Default: none.
    public init(scheme: String = "https", host: String? = nil, port: Int? = nil, connectAddress: String? = nil) {
        self.scheme = scheme.lowercased()
        self.host = host?.lowercased()
        self.port = port
        self.connectAddress = connectAddress
    }
}
