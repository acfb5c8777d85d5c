#if Firefox
    package import Foundation
    package import NIOCore
    import SchemeKitBrowserSupport

    /// Writes ``BiDiValue``s as compact UTF-8 JSON into a `ByteBuffer`, the message the WebSocket sends.
    ///
    /// A ``BiDiValue/binary(_:)`` body is base64-encoded straight into the buffer (no intermediate
    /// string). Non-finite doubles, which JSON cannot carry, are written as `null`.
    package struct BiDiJSONWriter {
        /// What has been written.
        package private(set) var buffer: ByteBuffer
        /// Whether object members are written in key order (for text people read); otherwise in
        /// the dictionary's order, which is cheaper.
        package let sortedKeys: Bool

        /// A writer with room for `capacity` bytes before it grows.
        package init(capacity: Int = 256, sortedKeys: Bool = false) {
            buffer = ByteBufferAllocator().buffer(capacity: capacity)
            self.sortedKeys = sortedKeys
        }

        /// The bytes written, as an array (tests, descriptions).
        package var bytes: [UInt8] { Array(buffer.readableBytesView) }

        /// Appends `value`.
        package mutating func write(_ value: BiDiValue) {
            switch value {
            case .null: buffer.writeStaticString("null")
            case .bool(let flag):
                if flag { buffer.writeStaticString("true") } else { buffer.writeStaticString("false") }
            case .int(let number): buffer.writeString(String(number))
            case .double(let number):
                if number.isFinite {
                    buffer.writeString(
                        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : "\(number)")
                } else {
                    buffer.writeStaticString("null")
                }
            case .string(let string): writeString(string)
            case .binary(let data): writeBase64String(data)
            case .array(let elements):
                buffer.writeInteger(UInt8(ascii: "["))
                for (index, element) in elements.enumerated() {
                    if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                    write(element)
                }
                buffer.writeInteger(UInt8(ascii: "]"))
            case .object(let members):
                buffer.writeInteger(UInt8(ascii: "{"))
                var first = true
                func member(_ key: String, _ member: BiDiValue) {
                    if !first { buffer.writeInteger(UInt8(ascii: ",")) }
                    first = false
                    writeString(key)
                    buffer.writeInteger(UInt8(ascii: ":"))
                    write(member)
                }
                if sortedKeys {
                    for (key, value) in members.sorted(by: { $0.key < $1.key }) { member(key, value) }
                } else {
                    for (key, value) in members { member(key, value) }
                }
                buffer.writeInteger(UInt8(ascii: "}"))
            }
        }

        private static let hex = Array("0123456789abcdef".utf8)

        /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\r`, `\t` or `\u00XX`.
        package mutating func writeString(_ string: String) {
            buffer.writeInteger(UInt8(ascii: "\""))
            var string = string
            string.withUTF8 { utf8 in
                var runStart = 0
                for index in 0..<utf8.count {
                    let byte = utf8[index]
                    guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                    if index > runStart {
                        buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[runStart..<index])))
                    }
                    runStart = index + 1
                    switch byte {
                    case UInt8(ascii: "\""): buffer.writeStaticString("\\\"")
                    case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
                    case 0x0A: buffer.writeStaticString("\\n")
                    case 0x0D: buffer.writeStaticString("\\r")
                    case 0x09: buffer.writeStaticString("\\t")
                    default:
                        buffer.writeStaticString("\\u00")
                        buffer.writeInteger(Self.hex[Int(byte >> 4)])
                        buffer.writeInteger(Self.hex[Int(byte & 0xF)])
                    }
                }
                if utf8.count > runStart {
                    buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[runStart...])))
                }
            }
            buffer.writeInteger(UInt8(ascii: "\""))
        }

        private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

        /// `data` as a base64 JSON string (RFC 4648 §4, padded), encoded in place.
        package mutating func writeBase64String(_ data: Data) {
            buffer.writeInteger(UInt8(ascii: "\""))
            let length = (data.count + 2) / 3 * 4
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: length) { output in
                data.withUnsafeBytes { input in
                    Self.alphabet.withUnsafeBufferPointer { table in
                        Self.encodeBase64(input, into: output, table: table)
                    }
                }
                return length
            }
            buffer.writeInteger(UInt8(ascii: "\""))
        }

        private static func encodeBase64(
            _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
            table: UnsafeBufferPointer<UInt8>
        ) {
            var inIndex = 0
            var outIndex = 0
            let whole = input.count / 3 * 3
            while inIndex < whole {
                let a = UInt32(input[inIndex])
                let b = UInt32(input[inIndex + 1])
                let c = UInt32(input[inIndex + 2])
                let triple = a << 16 | b << 8 | c
                output[outIndex] = table[Int(triple >> 18)]
                output[outIndex + 1] = table[Int(triple >> 12 & 0x3F)]
                output[outIndex + 2] = table[Int(triple >> 6 & 0x3F)]
                output[outIndex + 3] = table[Int(triple & 0x3F)]
                inIndex += 3
                outIndex += 4
            }
            let remaining = input.count - whole
            guard remaining > 0 else { return }
            let a = UInt32(input[inIndex])
            let b = remaining == 2 ? UInt32(input[inIndex + 1]) : 0
            let triple = a << 16 | b << 8
            output[outIndex] = table[Int(triple >> 18)]
            output[outIndex + 1] = table[Int(triple >> 12 & 0x3F)]
            output[outIndex + 2] = remaining == 2 ? table[Int(triple >> 6 & 0x3F)] : UInt8(ascii: "=")
            output[outIndex + 3] = UInt8(ascii: "=")
        }
    }
#endif
