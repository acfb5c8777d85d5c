import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address, parsed strictly (`inet_pton`: `127.0.0.1`, `::1`, `[::1]`; never
/// `127.1`, `0x7f.0.0.1` or a zone), and whether the network fallback may reach it unlisted.
///
/// ``isPublic`` is `false` for what a page must not reach through the app by naming it: the
/// unspecified and "this network" addresses (`0.0.0.0/8`, `::`), loopback (`127.0.0.0/8`,
/// `::1`), private networks (`10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`, unique local
/// `fc00::/7`, site-local `fec0::/10`), shared address space (`100.64.0.0/10`, carrier-grade NAT),
/// link-local (`169.254.0.0/16` — cloud metadata services —, `fe80::/10`), multicast
/// (`224.0.0.0/4`, `ff00::/8`) and the reserved `240.0.0.0/4` (broadcast included). An IPv6
/// address that carries an IPv4 one (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`,
/// NAT64 `64:ff9b::a.b.c.d`) is judged by that IPv4 address.
package struct NetworkAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address's bytes in network order: 4 for IPv4, 16 for IPv6.
    package let bytes: [UInt8]

    /// Parses an IP literal, with or without the brackets of a URL's IPv6 host; `nil` for anything
    /// else, names included.
    package init?(literal: String) {
        var text = Substring(literal)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        var v4 = in_addr()
        if inet_pton(AF_INET, String(text), &v4) == 1 {
            self.bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, String(text), &v6) == 1 {
            self.bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    /// An address from `bytes` (4 or 16 of them).
    package init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Whether it is an IPv6 address.
    package var isIPv6: Bool { bytes.count == 16 }

    /// The IPv4 address an IPv6 one carries (mapped, compatible or NAT64), or itself for IPv4.
    private var embeddedIPv4: [UInt8]? {
        guard isIPv6 else { return bytes }
        let head = bytes[0..<12]
        let mapped: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]
        let nat64: [UInt8] = [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0]
        // `::a.b.c.d` (IPv4-compatible): `::` and `::1` fall in it too, as `0.0.0.0/8`, not public.
        let compatible = head.allSatisfy { $0 == 0 }
        if Array(head) == mapped || Array(head) == nat64 || compatible { return Array(bytes[12...]) }
        return nil
    }

    /// Whether the fallback may reach this address without its being listed (see the type's
    /// documentation for what is not public). `::` and `::1` are in `::/96`, judged as
    /// `0.0.0.0/8`.
    package var isPublic: Bool {
        if let v4 = embeddedIPv4 { return Self.isPublicIPv4(v4) }
        let first = bytes[0]
        let second = bytes[1]
        if first & 0xFE == 0xFC { return false }  // fc00::/7 unique local
        if first == 0xFE, second & 0xC0 == 0x80 { return false }  // fe80::/10 link-local
        if first == 0xFE, second & 0xC0 == 0xC0 { return false }  // fec0::/10 site-local
        if first == 0xFF { return false }  // ff00::/8 multicast
        return true
    }

    private static func isPublicIPv4(_ v4: [UInt8]) -> Bool {
        let (a, b) = (v4[0], v4[1])
        switch a {
        case 0, 10, 127: return false  // this network, private, loopback
        case 100 where b & 0xC0 == 64: return false  // 100.64.0.0/10 shared (CGNAT)
        case 169 where b == 254: return false  // link-local, cloud metadata
        case 172 where b & 0xF0 == 16: return false  // 172.16.0.0/12 private
        case 192 where b == 168: return false  // 192.168.0.0/16 private
        case 224...255: return false  // multicast, reserved, broadcast
        default: return true
        }
    }

    /// The address as `inet_ntop` writes it (`127.0.0.1`, `::1`).
    package var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = isIPv6 ? AF_INET6 : AF_INET
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return "" }
        let length = buffer.firstIndex(of: 0) ?? buffer.count
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The address as a URL's host: IPv6 in brackets.
    package var urlHost: String { isIPv6 ? "[\(description)]" : description }
}
