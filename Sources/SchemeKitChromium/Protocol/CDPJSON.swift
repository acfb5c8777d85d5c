#if Chromium
    import Foundation
    import SchemeKitBrowserSupport

    /// The JSON wire format of the DevTools protocol: one UTF-8 JSON object per message.
    ///
    /// Writing is done by hand so a large ``CDPValue/binary(_:)`` body goes straight into the output
    /// as base64, without an intermediate string or escaped slashes; reading uses `JSONDecoder`.
    enum CDPJSON {
        /// Serialises `value` as compact JSON.
        static func encode(_ value: CDPValue) -> Data {
            var output = [UInt8]()
            output.reserveCapacity(256)
            write(value, into: &output)
            return Data(output)
        }

        /// Parses one message.
        static func decode(_ data: Data) throws -> CDPValue {
            try JSONDecoder().decode(CDPValue.self, from: data)
        }

        /// How many bytes `value` takes as JSON, without building it (for the message-size policy).
        static func base64Length(ofBinary count: Int) -> Int { (count + 2) / 3 * 4 }

        private static func write(_ value: CDPValue, into output: inout [UInt8]) {
            switch value {
            case .null: output += Array("null".utf8)
            case .bool(let flag): output += Array((flag ? "true" : "false").utf8)
            case .int(let number): output += Array(String(number).utf8)
            case .double(let number):
                output += Array((number.isFinite ? "\(number)" : "null").utf8)
            case .string(let string): writeString(string, into: &output)
            case .binary(let data):
                output.append(UInt8(ascii: "\""))
                output += Array(data.base64EncodedData())
                output.append(UInt8(ascii: "\""))
            case .array(let elements):
                output.append(UInt8(ascii: "["))
                for (index, element) in elements.enumerated() {
                    if index > 0 { output.append(UInt8(ascii: ",")) }
                    write(element, into: &output)
                }
                output.append(UInt8(ascii: "]"))
            case .object(let members):
                output.append(UInt8(ascii: "{"))
                for (index, (key, member)) in members.enumerated() {
                    if index > 0 { output.append(UInt8(ascii: ",")) }
                    writeString(key, into: &output)
                    output.append(UInt8(ascii: ":"))
                    write(member, into: &output)
                }
                output.append(UInt8(ascii: "}"))
            }
        }

        private static let hex = Array("0123456789abcdef".utf8)

        private static func writeString(_ string: String, into output: inout [UInt8]) {
            output.append(UInt8(ascii: "\""))
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
                case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case 0..<0x20:
                    output += Array("\\u00".utf8)
                    output += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                default: output.append(byte)
                }
            }
            output.append(UInt8(ascii: "\""))
        }
    }
#endif
