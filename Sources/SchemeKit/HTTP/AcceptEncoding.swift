/// A parsed `Accept-Encoding` header ([RFC 9110 §12.5.3](https://www.rfc-editor.org/rfc/rfc9110#section-12.5.3)):
/// which content codings the client accepts.
///
/// Shared by the file handler (precompressed siblings, on-the-fly encodings) and schemeserve. It
/// runs on every request a browser sends (`gzip, deflate, br, zstd`), so it reads bytes once, with
/// no allocation for the codings browsers send; an unusual coding name is kept as a string.
package struct AcceptEncoding: Sendable, Hashable {
    /// A coding this parser knows by name.
    private enum Known: Int, CaseIterable {
        case gzip, br, zstd, deflate, identity, compress, wildcard

        init?(_ token: UnsafeBufferPointer<UInt8>) {
            func equals(_ name: StaticString) -> Bool {
                guard token.count == name.utf8CodeUnitCount else { return false }
                for index in 0..<token.count where token[index] | 0x20 != name.utf8Start[index] { return false }
                return true
            }
            if equals("gzip") || equals("x-gzip") {
                self = .gzip
            } else if equals("br") {
                self = .br
            } else if equals("zstd") {
                self = .zstd
            } else if equals("deflate") {
                self = .deflate
            } else if equals("identity") {
                self = .identity
            } else if equals("compress") || equals("x-compress") {
                self = .compress
            } else if token.count == 1, token[0] == UInt8(ascii: "*") {
                self = .wildcard
            } else {
                return nil
            }
        }

        init?(_ name: String) {
            var name = name
            guard let known = name.withUTF8({ Known($0) }) else { return nil }
            self = known
        }
    }

    /// Bit `n` set: the known coding `n` is listed. Bit `n + 8`: it is listed with q > 0.
    private var listed: UInt16 = 0
    /// Other codings with q > 0 and q = 0, lowercased (rare: nil for every browser's header).
    private var others: [String: Bool]?

    /// Parses a header value such as `gzip, deflate, br;q=0.5, *;q=0`.
    package init(_ header: String) {
        var header = header
        header.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
                parseItem(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                start = end + 1
            }
        }
    }

    private mutating func parseItem(_ item: UnsafeBufferPointer<UInt8>) {
        let space = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var lower = 0
        while lower < item.count, space(item[lower]) { lower += 1 }
        var upper = lower
        while upper < item.count, item[upper] != UInt8(ascii: ";"), !space(item[upper]) { upper += 1 }
        guard upper > lower else { return }
        let token = UnsafeBufferPointer(rebasing: item[lower..<upper])
        let accepted = Self.weight(of: UnsafeBufferPointer(rebasing: item[upper...])) > 0
        if let known = Known(token) {
            listed |= 1 << known.rawValue
            if accepted { listed |= 1 << (known.rawValue + 8) } else { listed &= ~(1 << (known.rawValue + 8)) }
        } else {
            others = others ?? [:]
            others![String(decoding: token, as: UTF8.self).lowercased()] = accepted
        }
    }

    /// The `q` of an item's parameters (`;q=0.5`), 1 when there is none; 0 for a malformed one.
    private static func weight(of parameters: UnsafeBufferPointer<UInt8>) -> Double {
        var index = 0
        while index < parameters.count {
            // Find "q=" after a ';' (and optional spaces).
            guard parameters[index] == UInt8(ascii: ";") else {
                index += 1
                continue
            }
            index += 1
            while index < parameters.count, parameters[index] == UInt8(ascii: " ") { index += 1 }
            guard index + 1 < parameters.count, parameters[index] | 0x20 == UInt8(ascii: "q"),
                parameters[index + 1] == UInt8(ascii: "=")
            else { continue }
            index += 2
            var value = 0.0
            var scale = 0.0
            var digits = 0
            while index < parameters.count {
                let byte = parameters[index]
                if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                    let digit = Double(byte - UInt8(ascii: "0"))
                    if scale == 0 { value = value * 10 + digit } else { value += digit * scale; scale /= 10 }
                    digits += 1
                } else if byte == UInt8(ascii: "."), scale == 0 {
                    scale = 0.1
                } else {
                    break
                }
                index += 1
            }
            return digits == 0 ? 0 : value
        }
        return 1
    }

    /// Whether `coding` (lowercase) is acceptable: listed with q > 0, or not listed and covered by
    /// `*` with q > 0.
    package func allows(_ coding: String) -> Bool {
        if let known = Known(coding), known != .wildcard { return allows(known) }
        if let other = others?[coding] { return other }
        return allows(.wildcard)
    }

    private func allows(_ known: Known) -> Bool {
        if listed & (1 << known.rawValue) != 0 { return listed & (1 << (known.rawValue + 8)) != 0 }
        guard known != .wildcard else { return false }
        return listed & (1 << Known.wildcard.rawValue) != 0 && listed & (1 << (Known.wildcard.rawValue + 8)) != 0
    }
}
