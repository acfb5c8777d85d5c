#if Firefox
    import SchemeKitBrowserSupport

    /// Reads one JSON text (RFC 8259, UTF-8) into a ``BiDiValue``: the first step of reading every
    /// message Firefox sends.
    ///
    /// Strict about syntax (anything else is a ``BiDiProtocolError`` with the byte offset), lenient
    /// only where JSON texts from browsers are: a lone surrogate escape (`"\ud800"`, which a page's
    /// string may hold) reads as U+FFFD. Nesting deeper than ``maximumDepth`` is refused, so no input
    /// can exhaust the stack of the thread that reads it.
    package struct BiDiJSONReader {
        /// The deepest nesting of arrays and objects accepted.
        package static let maximumDepth = 256

        private let bytes: UnsafeRawBufferPointer
        private var index = 0
        private var depth = 0

        private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        /// Reads the value that fills `bytes` (whitespace around it aside).
        package static func read(_ bytes: UnsafeRawBufferPointer) throws(BiDiProtocolError) -> BiDiValue {
            var reader = BiDiJSONReader(bytes)
            reader.skipWhitespace()
            let value = try reader.readValue()
            reader.skipWhitespace()
            guard reader.index == bytes.count else { throw reader.error("text after the value") }
            return value
        }

        /// Reads the value that fills `bytes`.
        package static func read(_ bytes: some Collection<UInt8>) throws(BiDiProtocolError) -> BiDiValue {
            let result: Result<BiDiValue, BiDiProtocolError>? = bytes.withContiguousStorageIfAvailable { buffer in
                do throws(BiDiProtocolError) {
                    return .success(try read(UnsafeRawBufferPointer(buffer)))
                } catch { return .failure(error) }
            }
            if let result { return try result.get() }
            return try read(Array(bytes))
        }

        private func error(_ what: String) -> BiDiProtocolError {
            BiDiProtocolError("malformed JSON at byte \(index): \(what)")
        }

        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        private mutating func readValue() throws(BiDiProtocolError) -> BiDiValue {
            guard index < bytes.count else { throw error("the text ends where a value should start") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try readObject()
            case UInt8(ascii: "["): return try readArray()
            case UInt8(ascii: "\""): return .string(try readString())
            case UInt8(ascii: "t"): return try readLiteral("true", .bool(true))
            case UInt8(ascii: "f"): return try readLiteral("false", .bool(false))
            case UInt8(ascii: "n"): return try readLiteral("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
            default: throw error("unexpected byte 0x\(String(bytes[index], radix: 16))")
            }
        }

        private mutating func readLiteral(_ word: StaticString, _ value: BiDiValue) throws(BiDiProtocolError)
            -> BiDiValue
        {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { throw error("the text ends inside \(word)") }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
                throw error("expected \(word)")
            }
            index += count
            return value
        }

        private mutating func enter() throws(BiDiProtocolError) {
            depth += 1
            guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
        }

        private mutating func readObject() throws(BiDiProtocolError) -> BiDiValue {
            try enter()
            defer { depth -= 1 }
            index += 1
            var members: [String: BiDiValue] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error("expected a member name")
                }
                let key = try readString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                index += 1
                skipWhitespace()
                members[key] = try readValue()
                skipWhitespace()
                guard index < bytes.count else { throw error("the text ends inside an object") }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    return .object(members)
                default: throw error("expected ',' or '}'")
                }
            }
        }

        private mutating func readArray() throws(BiDiProtocolError) -> BiDiValue {
            try enter()
            defer { depth -= 1 }
            index += 1
            var elements: [BiDiValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try readValue())
                skipWhitespace()
                guard index < bytes.count else { throw error("the text ends inside an array") }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    return .array(elements)
                default: throw error("expected ',' or ']'")
                }
            }
        }

        private mutating func readNumber() throws(BiDiProtocolError) -> BiDiValue {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            var integral = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                integral = false
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                integral = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected an exponent") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if integral, let value = Int(text) { return .int(value) }
            guard let value = Double(text), value.isFinite else { throw error("a number out of range") }
            return .double(value)
        }

        private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        private mutating func readString() throws(BiDiProtocolError) -> String {
            index += 1  // the opening quote
            let start = index
            // Fast path: no escape before the closing quote.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let run = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    guard let string = String(validating: run, as: UTF8.self) else { throw error("invalid UTF-8") }
                    return string
                }
                if byte == UInt8(ascii: "\\") { break }
                guard byte >= 0x20 else { throw error("a control character inside a string") }
                index += 1
            }
            var scalars = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            while true {
                guard index < bytes.count else { throw error("the text ends inside a string") }
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    guard let string = String(validating: scalars, as: UTF8.self) else {
                        throw error("invalid UTF-8")
                    }
                    return string
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { throw error("the text ends inside an escape") }
                    let escaped = bytes[index]
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escaped)
                    case UInt8(ascii: "b"): scalars.append(0x08)
                    case UInt8(ascii: "f"): scalars.append(0x0C)
                    case UInt8(ascii: "n"): scalars.append(0x0A)
                    case UInt8(ascii: "r"): scalars.append(0x0D)
                    case UInt8(ascii: "t"): scalars.append(0x09)
                    case UInt8(ascii: "u"):
                        let scalar = try readUnicodeEscape()
                        scalars.append(contentsOf: String(Character(scalar)).utf8)
                    default: throw error("an unknown escape")
                    }
                default:
                    guard byte >= 0x20 else { throw error("a control character inside a string") }
                    scalars.append(byte)
                    index += 1
                }
            }
        }

        /// After `\u`: four hex digits, and a low surrogate's escape after a high one. A surrogate
        /// without its pair reads as U+FFFD.
        private mutating func readUnicodeEscape() throws(BiDiProtocolError) -> Unicode.Scalar {
            let unit = try readHex4()
            if unit >= 0xD800 && unit < 0xDC00 {
                if bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    let saved = index
                    index += 2
                    let low = try readHex4()
                    if low >= 0xDC00 && low < 0xE000 {
                        let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        return Unicode.Scalar(value) ?? "\u{FFFD}"
                    }
                    index = saved  // not a pair: the next escape is read on its own
                }
                return "\u{FFFD}"
            }
            return Unicode.Scalar(unit) ?? "\u{FFFD}"
        }

        private mutating func readHex4() throws(BiDiProtocolError) -> UInt32 {
            guard bytes.count - index >= 4 else { throw error("the text ends inside a \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw error("a bad hex digit in a \\u escape")
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }
    }
#endif
