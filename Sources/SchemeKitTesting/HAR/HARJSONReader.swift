import Foundation

/// Reads the JSON of a HAR file into ``HARValue``s (RFC 8259, UTF-8, an optional byte order mark).
///
/// Iterative — containers live on an explicit stack, never on the call stack — so no input can
/// overflow the stack; nesting is limited to ``maxDepth``. Every failure is a ``HARError``
/// (``HARError/Kind/truncated`` when the bytes end early, ``HARError/Kind/malformedJSON``
/// otherwise) with the byte offset and, when the reader was inside `log.entries`, the entry's
/// index and the URL of its request when that was already read.
struct HARJSONReader {
    /// The deepest nesting accepted.
    static let maxDepth = 512

    /// Reads one JSON value filling the whole of `data` (whitespace aside).
    static func read(_ data: Data) throws(HARError) -> HARValue {
        let result: Result<HARValue, HARError> = data.withUnsafeBytes { raw in
            var reader = HARJSONReader(bytes: raw.bindMemory(to: UInt8.self))
            do throws(HARError) { return .success(try reader.readDocument()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// A container being read.
    private final class Container {
        let isArray: Bool
        var elements: [HARValue] = []
        var members: [String: HARValue] = [:]
        /// The member name whose value is being read (objects only).
        var key = ""

        init(isArray: Bool) { self.isArray = isArray }

        var value: HARValue { isArray ? .array(elements) : .object(members) }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var stack: [Container] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: Document

    private mutating func readDocument() throws(HARError) -> HARValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        guard index < bytes.count else { throw truncated("the file is empty") }
        values: while true {
            var value: HARValue
            skipWhitespace()
            guard index < bytes.count else { throw truncated("the file ends where a value should start") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                try push(Container(isArray: false))
                skipWhitespace()
                guard index < bytes.count else { throw truncated("the file ends inside an object") }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    value = pop()
                } else {
                    try readMemberName()
                    continue values
                }
            case UInt8(ascii: "["):
                index += 1
                try push(Container(isArray: true))
                skipWhitespace()
                guard index < bytes.count else { throw truncated("the file ends inside an array") }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    value = pop()
                } else {
                    continue values
                }
            case UInt8(ascii: "\""):
                value = .string(try readString())
            case UInt8(ascii: "t"):
                try readLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try readLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try readLiteral("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try readNumber())
            default:
                throw malformed("unexpected character \(Self.show(bytes[index])) where a value should start")
            }
            // Hand the finished value to its container, closing containers as they end.
            while true {
                guard let top = stack.last else {
                    skipWhitespace()
                    guard index == bytes.count else { throw malformed("unexpected data after the JSON value") }
                    return value
                }
                if top.isArray {
                    top.elements.append(value)
                } else {
                    top.members[top.key] = value
                }
                skipWhitespace()
                guard index < bytes.count else {
                    throw truncated(top.isArray ? "the file ends inside an array" : "the file ends inside an object")
                }
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: ",") {
                    if !top.isArray { try readMemberName() }
                    continue values
                }
                if byte == UInt8(ascii: top.isArray ? "]" : "}") {
                    value = pop()
                    continue
                }
                index -= 1
                throw malformed(top.isArray ? "expected ',' or ']' in an array" : "expected ',' or '}' in an object")
            }
        }
    }

    private mutating func push(_ container: Container) throws(HARError) {
        guard stack.count < Self.maxDepth else { throw malformed("nesting deeper than \(Self.maxDepth) levels") }
        stack.append(container)
    }

    private mutating func pop() -> HARValue {
        stack.removeLast().value
    }

    /// Reads `"name" :` and makes it the current object's pending member name.
    private mutating func readMemberName() throws(HARError) {
        skipWhitespace()
        guard index < bytes.count else { throw truncated("the file ends inside an object") }
        guard bytes[index] == UInt8(ascii: "\"") else { throw malformed("expected a member name in quotes") }
        let name = try readString()
        skipWhitespace()
        guard index < bytes.count else { throw truncated("the file ends inside an object") }
        guard bytes[index] == UInt8(ascii: ":") else { throw malformed("expected ':' after a member name") }
        index += 1
        stack.last?.key = name
    }

    // MARK: Scalars

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func readLiteral(_ literal: StaticString) throws(HARError) {
        let count = literal.utf8CodeUnitCount
        for offset in 0..<count {
            guard index + offset < bytes.count else { throw truncated("the file ends inside '\(literal)'") }
            guard bytes[index + offset] == literal.utf8Start[offset] else {
                index += offset
                throw malformed("unexpected character \(Self.show(bytes[index])) in '\(literal)'")
            }
        }
        index += count
    }

    private mutating func readNumber() throws(HARError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw truncated("the file ends inside a number") }
        guard Self.isDigit(bytes[index]) else { throw malformed("a number needs digits") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, Self.isDigit(bytes[index]) {
                throw malformed("a number cannot start with 0 followed by digits")
            }
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            try requireDigits("a fraction needs digits")
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            try requireDigits("an exponent needs digits")
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else {
            index = start
            throw malformed("the number \(text.prefix(40)) is out of range")
        }
        return number
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private mutating func skipDigits() {
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    /// Skips one or more digits; `truncated` when the bytes end first, `malformed` when none follow.
    private mutating func requireDigits(_ reason: String) throws(HARError) {
        guard index < bytes.count else { throw truncated("the file ends inside a number") }
        guard Self.isDigit(bytes[index]) else { throw malformed(reason) }
        skipDigits()
    }

    private mutating func readString() throws(HARError) -> String {
        index += 1  // the opening quote
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw malformed("a control character inside a string") }
            index += 1
        }
        guard index < bytes.count else { throw truncated("the file ends inside a string") }
        // Escapes: build the bytes.
        var buffer = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            }
            if byte < 0x20 { throw malformed("a control character inside a string") }
            guard byte == UInt8(ascii: "\\") else {
                buffer.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try readHex4()
                if (0xD800...0xDBFF).contains(scalar), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                {
                    let save = index
                    index += 2
                    let low = try readHex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        index = save  // not a pair: the high half alone becomes U+FFFD below
                    }
                }
                let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                buffer.append(contentsOf: Array(String(character).utf8))
            default:
                index -= 1
                throw malformed("unknown escape \\\(Self.show(escape))")
            }
        }
        throw truncated("the file ends inside a string")
    }

    private mutating func readHex4() throws(HARError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw truncated("the file ends inside a \\u escape") }
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 0x41 + 10)
            default: throw malformed("a \\u escape needs four hexadecimal digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    // MARK: Errors

    private static func show(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "0x\(String(byte, radix: 16))"
    }

    private func truncated(_ reason: String) -> HARError { error(.truncated, reason) }

    private func malformed(_ reason: String) -> HARError { error(.malformedJSON, reason) }

    /// An error at the current offset, naming the entry of `log.entries` the reader is in.
    private func error(_ kind: HARError.Kind, _ reason: String) -> HARError {
        guard let (entryIndex, url) = currentEntry() else {
            return HARError(kind, reason, byteOffset: index)
        }
        return HARError(kind, reason, entryIndex: entryIndex, entryURL: url, byteOffset: index)
    }

    /// The index (and request URL, when read) of the entry being read: the stack is then
    /// root object → `log` object → `entries` array → the entry → ….
    private func currentEntry() -> (Int, String?)? {
        guard stack.count >= 3, !stack[0].isArray, stack[0].key == "log", !stack[1].isArray,
            stack[1].key == "entries", stack[2].isArray
        else { return nil }
        let entryIndex = stack[2].elements.count
        guard stack.count >= 4, !stack[3].isArray else { return (entryIndex, nil) }
        let entry = stack[3]
        if let url = entry.members["request"]?["url"]?.stringValue { return (entryIndex, url) }
        if entry.key == "request", stack.count >= 5, !stack[4].isArray, let url = stack[4].members["url"]?.stringValue {
            return (entryIndex, url)
        }
        return (entryIndex, nil)
    }
}
