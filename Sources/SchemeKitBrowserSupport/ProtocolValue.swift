#if Chromium || Firefox
    package import Foundation
    package import SchemeKit

    /// A value of a browser protocol's message (DevTools' `CDPValue`, WebDriver BiDi's `BiDiValue`):
    /// JSON's values plus bytes. Each engine adds its wire formats in its own module.
    ///
    /// Contract: ``binary(_:)`` is bytes a protocol field carries as such (raw on CDP's CBOR, a
    /// base64 string on JSON); objects are unordered. The accessors read one case and return `nil`
    /// for any other; a whole ``double(_:)`` of magnitude under 9×10¹⁵ also reads as an integer.
    /// Conformances live with the wire format that needs them, each in one module only: `Codable`
    /// in SchemeKitChromium (CDP's JSON), the literals and `CustomStringConvertible` (BiDi's JSON
    /// text) in SchemeKitFirefox; a module must not add a conformance another one has.
    package enum ProtocolValue: Sendable, Hashable {
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
        case array([ProtocolValue])
        /// An object.
        case object([String: ProtocolValue])

        /// The member named `key` of an object; `nil` for a missing member or a non-object.
        package subscript(key: String) -> ProtocolValue? {
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
            case .double(let value) where value.rounded() == value && abs(value) < 9.0e15: return Int(value)
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

        /// The Boolean, or `nil`.
        package var boolValue: Bool? {
            if case .bool(let value) = self { return value }
            return nil
        }

        /// The elements of an array, or `nil`.
        package var arrayValue: [ProtocolValue]? {
            if case .array(let elements) = self { return elements }
            return nil
        }

        /// The members of an object, or `nil`.
        package var objectValue: [String: ProtocolValue]? {
            if case .object(let members) = self { return members }
            return nil
        }

        /// Whether the value is `null`.
        package var isNull: Bool {
            if case .null = self { return true }
            return false
        }
    }

    extension JavaScriptValue {
        /// A protocol value as a script value (bytes, which scripts never return, as base64 text).
        package init(_ value: ProtocolValue) {
            switch value {
            case .null: self = .null
            case .bool(let value): self = .bool(value)
            case .int(let value): self = .number(Double(value))
            case .double(let value): self = .number(jsonCompatible: value)
            case .string(let value): self = .string(value)
            case .binary(let data): self = .string(data.base64EncodedString())
            case .array(let elements): self = .array(elements.map { JavaScriptValue($0) })
            case .object(let members): self = .object(members.mapValues { JavaScriptValue($0) })
            }
        }
    }
#endif
