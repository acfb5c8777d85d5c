import Foundation
import HTTPTypes

/// Which header fields a proxy forwards (RFC 9110 §7.6.1): hop-by-hop fields describe one
/// connection and must not cross it.
enum HopByHopHeaders {
    /// Connection, Keep-Alive, Proxy-*, TE, Trailer, Transfer-Encoding, Upgrade.
    static let names: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization",
        "te", "trailer", "transfer-encoding", "upgrade",
    ]

    /// Whether a field (lowercased name) is hop-by-hop whatever the message: one of ``names`` or
    /// any `Proxy-*` field.
    static func isHopByHop(_ name: String) -> Bool {
        names.contains(name) || name.hasPrefix("proxy-")
    }

    /// `fields` without hop-by-hop fields, without those named in `Connection`, and without those
    /// `dropping` returns `true` for (it gets the lowercased name).
    static func forwardable(_ fields: HTTPFields, dropping: (String) -> Bool = { _ in false }) -> HTTPFields {
        var listed = Set<String>()
        for value in fields[values: .connection] {
            for token in value.split(separator: ",") {
                listed.insert(token.trimmingCharacters(in: .whitespaces).lowercased())
            }
        }
        var result = HTTPFields()
        for field in fields {
            let name = field.name.canonicalName
            if isHopByHop(name) || listed.contains(name) || dropping(name) { continue }
            result.append(field)
        }
        return result
    }

    /// Request fields a proxy sets itself: `Host` (from the target), `Content-Length` (from the
    /// body) and `Accept-Encoding` (the client negotiates what it can decode).
    static let requestFieldsSetByClient: Set<String> = ["host", "content-length", "accept-encoding"]
}
