import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the network fallback looks a host name up before it checks where the name leads
/// (``NetworkAllowedHosts``): `getaddrinfo` by default; tests give names addresses of their own.
package struct NetworkResolver: Sendable {
    /// Every address `name` resolves to; throws when it resolves to none.
    package let resolve: @Sendable (_ name: String) async throws -> [NetworkAddress]

    /// A resolver that calls `resolve`.
    package init(_ resolve: @escaping @Sendable (_ name: String) async throws -> [NetworkAddress]) {
        self.resolve = resolve
    }

    /// `getaddrinfo` (IPv4 and IPv6, stream sockets), on a dispatch queue: it blocks, for as long as
    /// a DNS server takes, and must not hold a thread of the cooperative pool.
    package static let system = NetworkResolver { name in
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try lookUp(name) })
            }
        }
    }

    /// A resolver that answers `names` from the table and asks `fallback` for the rest: for tests
    /// (a name that resolves to loopback without touching `/etc/hosts`).
    package static func table(_ names: [String: [NetworkAddress]], fallback: NetworkResolver = .system)
        -> NetworkResolver
    {
        NetworkResolver { name in
            if let addresses = names[NetworkAllowedHosts.normalized(name)] { return addresses }
            return try await fallback.resolve(name)
        }
    }

    private static func lookUp(_ name: String) throws -> [NetworkAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        guard status == 0 else {
            throw SchemeHTTPClientError(
                .connectionFailed, detail: "cannot resolve \(name): \(String(cString: gai_strerror(status)))")
        }
        var addresses: [NetworkAddress] = []
        var node = list
        while let info = node {
            if let address = info.pointee.ai_addr {
                switch Int32(info.pointee.ai_family) {
                case AF_INET:
                    var ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                    addresses.append(NetworkAddress(bytes: withUnsafeBytes(of: &ipv4) { Array($0) })!)
                case AF_INET6:
                    var ipv6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                    addresses.append(NetworkAddress(bytes: withUnsafeBytes(of: &ipv6) { Array($0) })!)
                default:
                    break
                }
            }
            node = info.pointee.ai_next
        }
        guard !addresses.isEmpty else {
            throw SchemeHTTPClientError(.connectionFailed, detail: "cannot resolve \(name): no address")
        }
        return addresses
    }
}
