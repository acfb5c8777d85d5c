#if Chromium
    package import Foundation
    package import SchemeKitBrowserSupport

    /// A DevTools-protocol value: what a message, a command's parameters or a result is made of
    /// (the browser protocols' shared ``ProtocolValue``).
    ///
    /// It is the common model of both wire formats: JSON (`--remote-debugging-pipe`) and Chromium's
    /// CBOR (`--remote-debugging-pipe=cbor`). The one difference between them is `binary`: CBOR
    /// carries it as raw bytes, JSON as a base64 string (so a value read from JSON holds a `string`
    /// where CBOR holds `binary`; ``binaryData`` reads either).
    package typealias CDPValue = ProtocolValue

    extension CDPValue {
        /// The value as compact JSON text (`binary` as a base64 string), as the JSON pipe carries
        /// it: `true`, `"no-cache"`, `{"a":1}`.
        package var jsonText: String { String(decoding: CDPJSON.encode(self), as: UTF8.self) }

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
