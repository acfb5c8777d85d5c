#if Chromium
    package import Foundation

    /// A DevTools-protocol value: what a message, a command's parameters or a result is made of.
    ///
    /// It is the common model of both wire formats: JSON (`--remote-debugging-pipe`) and Chromium's
    /// CBOR (`--remote-debugging-pipe=cbor`). The one difference between them is ``binary(_:)``:
    /// CBOR carries it as raw bytes, JSON as a base64 string (so a value read from JSON holds a
    /// ``string(_:)`` where CBOR holds ``binary(_:)``; ``binaryData`` reads either).
    package enum CDPValue: Sendable, Hashable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// An integer.
        case int(Int)
        /// A floating-point number.
        case double(Double)
        /// A text string.
        case string(String)
        /// Bytes: a protocol field of type `binary` (base64 on JSON, raw on CBOR).
        case binary(Data)
        /// An array.
        case array([CDPValue])
        /// An object (a CBOR map with text keys).
        case object([String: CDPValue])

        /// The member named `key` of an object; `nil` for a missing member or a non-object.
        package subscript(key: String) -> CDPValue? {
            if case .object(let members) = self { return members[key] }
            return nil
        }

        /// The string, or `nil`.
        package var stringValue: String? {
            if case .string(let value) = self { return value }
            return nil
        }

        /// The integer (a whole double counts), or `nil`.
        package var intValue: Int? {
            switch self {
            case .int(let value): return value
            case .double(let value) where value.rounded() == value && abs(value) < 1e15: return Int(value)
            default: return nil
            }
        }

        /// The number as a double, or `nil`.
        package var doubleValue: Double? {
            switch self {
            case .int(let value): return Double(value)
            case .double(let value): return value
            default: return nil
            }
        }

        /// The elements of an array, or `nil`.
        package var arrayValue: [CDPValue]? {
            if case .array(let elements) = self { return elements }
            return nil
        }

        /// The value as compact JSON text (``binary(_:)`` as a base64 string), as the JSON pipe
        /// carries it: `true`, `"no-cache"`, `{"a":1}`.
        package var jsonText: String { String(decoding: CDPJSON.encode(self), as: UTF8.self) }

        /// The Boolean, or `nil`.
        package var boolValue: Bool? {
            if case .bool(let value) = self { return value }
            return nil
        }

        /// The bytes of a `binary` field: raw bytes (CBOR) or the decoded base64 string (JSON).
        package var binaryData: Data? {
            switch self {
            case .binary(let data): return data
            case .string(let base64): return Data(base64Encoded: base64)
            default: return nil
            }
        }
    }

    extension CDPValue: Codable {
        /// Decodes any JSON value; binary data cannot be told from a string in JSON and decodes as one.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Int.self) {
                self = .int(value)
            } else if let value = try? container.decode(Double.self) {
                self = .double(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([CDPValue].self) {
                self = .array(value)
            } else {
                self = .object(try container.decode([String: CDPValue].self))
            }
        }

        /// Encodes as JSON would carry it: ``binary(_:)`` as a base64 string.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let value): try container.encode(value)
            case .int(let value): try container.encode(value)
            case .double(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .binary(let value): try container.encode(value.base64EncodedString())
            case .array(let value): try container.encode(value)
            case .object(let value): try container.encode(value)
            }
        }
    }

    extension CDPValue {
        /// Converts a `Codable` value (a command's parameters) into a protocol value.
        ///
        /// `Data` members become base64 strings, which Chromium accepts on both transports.
        package init(encoding value: some Encodable) throws {
            let json = try JSONEncoder().encode(value)
            self = try JSONDecoder().decode(CDPValue.self, from: json)
        }

        /// Converts this value into a `Decodable` type (an event's or a result's Swift shape).
        ///
        /// ``binary(_:)`` members decode as base64 strings, so a `Data` member reads the same from
        /// either transport.
        package func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
            try JSONDecoder().decode(T.self, from: JSONEncoder().encode(self))
        }
    }
#endif
