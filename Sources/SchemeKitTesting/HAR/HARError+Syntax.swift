import Foundation

extension HARError {
    /// The error for bytes Foundation's JSON parser refuses: why and at which byte, from a second
    /// parse with `JSONSerialization` (`JSONDecoder` only says the data is not valid JSON), and the
    /// entry holding that byte, from a scan of the bytes before it.
    ///
    /// `truncated` when the parser ran out of bytes, `malformedJSON` otherwise.
    static func syntax(in data: Data) -> HARError {
        var message = "the data is not valid JSON"
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            message = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        }
        var offset: Int?
        if let match = message.firstMatch(of: #/ around character (\d+)/#) {
            offset = Int(match.1)
            message.removeSubrange(match.range)
        }
        // "Unexpected end of file during string parse (expected low-surrogate …)" is a lone
        // surrogate, not the end of the data.
        let truncated = offset == nil && message.contains("end of file") && !message.contains("surrogate")
        if truncated { offset = data.count }
        if message.hasSuffix(".") { message.removeLast() }
        let reason = message.prefix(1).lowercased() + message.dropFirst()
        let kind: Kind = truncated ? .truncated : .malformedJSON
        guard let offset, let entry = EntryLocator.entry(at: offset, in: data) else {
            return HARError(kind, reason, byteOffset: offset)
        }
        return HARError(kind, reason, entryIndex: entry.index, entryURL: entry.url, byteOffset: offset)
    }
}

/// Which entry of `log.entries` holds a byte of a HAR file, and that entry's request URL when it
/// comes before that byte: a scan of brackets, member names and strings, no values built. Only
/// for syntax errors, which Foundation reports by byte offset alone.
private enum EntryLocator {
    /// An open object or array.
    private struct Level {
        let isArray: Bool
        /// The member whose value is being read (objects).
        var key = ""
        /// Whether a member name comes next (objects).
        var expectsKey: Bool
        /// The elements before the current one (arrays).
        var elements = 0
    }

    static func entry(at offset: Int, in data: Data) -> (index: Int, url: String?)? {
        data.withUnsafeBytes { bytes in
            var stack: [Level] = []
            var url: (entry: Int, text: String)?
            var index = 0
            let end = min(offset, bytes.count)
            while index < end {
                switch bytes[index] {
                case UInt8(ascii: "{"): stack.append(Level(isArray: false, expectsKey: true))
                case UInt8(ascii: "["): stack.append(Level(isArray: true, expectsKey: false))
                case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = stack.popLast()
                case UInt8(ascii: ","):
                    if stack.last?.isArray == true { stack[stack.count - 1].elements += 1 }
                    if stack.last?.isArray == false { stack[stack.count - 1].expectsKey = true }
                case UInt8(ascii: ":"):
                    if !stack.isEmpty { stack[stack.count - 1].expectsKey = false }
                case UInt8(ascii: "\""):
                    let start = index + 1
                    index = start
                    while index < end, bytes[index] != UInt8(ascii: "\"") {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    guard index < end else { break }
                    let raw = Data(bytes[start..<index])
                    if stack.last?.expectsKey == true {
                        stack[stack.count - 1].key = String(decoding: raw, as: UTF8.self)
                    } else if let entry = entryIndex(stack), stack.count == 5, stack[3].key == "request",
                        stack[4].key == "url"
                    {
                        let quoted = Data("\"".utf8) + raw + Data("\"".utf8)
                        url = (try? JSONDecoder().decode(String.self, from: quoted)).map { (entry, $0) }
                    }
                default: break
                }
                index += 1
            }
            guard let entry = entryIndex(stack) else { return nil }
            return (entry, url?.entry == entry ? url?.text : nil)
        }
    }

    /// The index in `log.entries` of the entry the stack is in: root object → `log` → `entries`.
    private static func entryIndex(_ stack: [Level]) -> Int? {
        guard stack.count >= 3, !stack[0].isArray, stack[0].key == "log", !stack[1].isArray,
            stack[1].key == "entries", stack[2].isArray
        else { return nil }
        return stack[2].elements
    }
}
