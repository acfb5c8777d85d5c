/// The parts of a hierarchical URL string, found by a single pass over its UTF-8 bytes.
///
/// This is ``SchemeRequest``'s fast path. It accepts the common shape only: plain ASCII in the
/// RFC 3986 character set, a registered-name host (no IP literal, no
/// percent-escape), a port of at most five digits, and well-formed `%XX` escapes. Anything else
/// is ``Outcome/unsupported`` and the caller falls back to Foundation's `URLComponents`, so the
/// fast path never changes what a URL means: it only skips the expensive parser when the answer
/// is certain. Userinfo (`user@`) is unsupported for the same reason.
struct SchemeURLParts: Sendable {
    /// The scheme, lowercased.
    var scheme: String
    /// The host, lowercased; empty when the URL has none.
    var host: String
    /// The port, when the URL names one.
    var port: Int?
    /// The authority as it goes into the HTTP head: host, then `:port` when there is one.
    var authority: String
    /// The percent-encoded path; `/` when the URL has none.
    var path: String
    /// The percent-encoded query without its `?`, or `nil`.
    var query: String?
    /// The path followed by `?query` when there is one.
    var pathAndQuery: String

    /// What the fast parser made of a string.
    /// The longest host accepted, in bytes: Foundation's `URLComponents` finds no host in a
    /// longer one (while `URL` does), so such a URL would mean two different things.
    static let maximumHostLength = 2048

    enum Outcome: Sendable {
        /// A URL the fast path fully understands.
        case parsed(SchemeURLParts)
        /// A URL that is certainly invalid for SchemeKit (fragment, not hierarchical).
        case rejected(SchemeRequestError)
        /// Something outside the fast path's subset; ask `URLComponents`.
        case unsupported
    }

    /// Parses `string` as `scheme ":" ( "//" authority path-abempty | path-absolute ) [ "?" query ]`.
    static func parse(_ string: String) -> Outcome {
        var bytes = string
        return bytes.withUTF8 { parse(bytes: $0, original: string) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>, original: String) -> Outcome {
        let count = bytes.count
        // Scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":".
        guard count > 0, isAlpha(bytes[0]) else { return .unsupported }
        var index = 1
        while index < count, bytes[index] != UInt8(ascii: ":") {
            guard isSchemeByte(bytes[index]) else { return .unsupported }
            index += 1
        }
        guard index < count else { return .unsupported }
        let schemeEnd = index
        index += 1  // ":"

        // Every remaining byte must be in the URL character set; `%` must start an escape.
        var fragment = false
        var scan = index
        while scan < count {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "%") {
                guard scan + 2 < count, isHex(bytes[scan + 1]), isHex(bytes[scan + 2]) else { return .unsupported }
                scan += 3
                continue
            }
            guard isURLByte(byte) else { return .unsupported }
            if byte == UInt8(ascii: "#") { fragment = true }
            scan += 1
        }
        if fragment { return .rejected(.fragmentNotAllowed(original)) }

        var host = ""
        var port: Int?
        var authority = ""
        if count - index >= 2, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
            index += 2
            let hostStart = index
            while index < count, bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "?"),
                bytes[index] != UInt8(ascii: ":")
            {
                guard isHostByte(bytes[index]) else { return .unsupported }
                index += 1
            }
            let hostEnd = index
            if hostEnd - hostStart > Self.maximumHostLength { return .rejected(.malformedURL(original)) }
            if index < count, bytes[index] == UInt8(ascii: ":") {
                index += 1
                var value = 0
                var digits = 0
                while index < count, bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "?") {
                    let byte = bytes[index]
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 5 else { return .unsupported }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                    digits += 1
                    index += 1
                }
                if digits > 0 { port = value }
            }
            host = lowercased(bytes, hostStart, hostEnd)
            authority = port.map { "\(host):\($0)" } ?? host
        } else if index >= count || bytes[index] != UInt8(ascii: "/") {
            return .rejected(.notHierarchical(original))
        }

        let pathStart = index
        while index < count, bytes[index] != UInt8(ascii: "?") { index += 1 }
        let pathEnd = index
        let query: String? = index < count ? string(bytes, index + 1, count) : nil
        let path: String
        let pathAndQuery: String
        if pathStart == pathEnd {
            path = "/"
            pathAndQuery = query.map { "/?\($0)" } ?? "/"
        } else {
            path = string(bytes, pathStart, pathEnd)
            pathAndQuery = query == nil ? path : string(bytes, pathStart, count)
        }
        return .parsed(
            SchemeURLParts(
                scheme: lowercased(bytes, 0, schemeEnd),
                host: host,
                port: port,
                authority: authority,
                path: path,
                query: query,
                pathAndQuery: pathAndQuery
            ))
    }

    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    private static func lowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        var hasUpper = false
        for byte in bytes[start..<end] where byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
            hasUpper = true
            break
        }
        guard hasUpper else { return string(bytes, start, end) }
        return String(unsafeUninitializedCapacity: end - start) { buffer in
            for offset in 0..<(end - start) {
                let byte = bytes[start + offset]
                buffer[offset] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            }
            return end - start
        }
    }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f"))
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    /// unreserved / sub-delims: the bytes of a registered name (percent-escapes excluded).
    private static func isHostByte(_ byte: UInt8) -> Bool {
        if isAlpha(byte) || isDigit(byte) { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    /// unreserved / sub-delims / ":" / "@" / "/" / "?" / "#" (the escape byte `%` is checked apart).
    /// `@` is allowed in paths and queries; in the authority the host scan rejects it.
    private static func isURLByte(_ byte: UInt8) -> Bool {
        if isHostByte(byte) { return true }
        switch byte {
        case UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
            return true
        default:
            return false
        }
    }
}
