#if Firefox
    package import Foundation

    /// A JSON value of a WebDriver BiDi message, as SchemeKit reads and writes them.
    ///
    /// Integers that fit an `Int` read as ``int(_:)``, other numbers as ``double(_:)``. Objects are
    /// unordered; a key given twice keeps its last value. ``binary(_:)`` is never read: it is how
    /// a body goes out, written straight into the message as a base64 string.
    package enum BiDiValue: Sendable, Hashable {
        case null
        case bool(Bool)
        case int(Int)
        case double(Double)
        case string(String)
        /// Bytes written as a base64 JSON string (write-only).
        case binary(Data)
        case array([BiDiValue])
        case object([String: BiDiValue])

        /// The member `key` of an object; `nil` for a missing member or a value that is no object.
        package subscript(key: String) -> BiDiValue? {
            if case .object(let members) = self { return members[key] }
            return nil
        }

        package var stringValue: String? {
            if case .string(let value) = self { return value }
            return nil
        }

        package var intValue: Int? {
            switch self {
            case .int(let value): return value
            case .double(let value) where value.rounded() == value && abs(value) < 9.0e15: return Int(value)
            default: return nil
            }
        }

        package var doubleValue: Double? {
            switch self {
            case .int(let value): return Double(value)
            case .double(let value): return value
            default: return nil
            }
        }

        package var boolValue: Bool? {
            if case .bool(let value) = self { return value }
            return nil
        }

        package var arrayValue: [BiDiValue]? {
            if case .array(let value) = self { return value }
            return nil
        }

        package var objectValue: [String: BiDiValue]? {
            if case .object(let value) = self { return value }
            return nil
        }

        package var isNull: Bool {
            if case .null = self { return true }
            return false
        }
    }

    extension BiDiValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
        ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
    {
        package init(stringLiteral value: String) { self = .string(value) }
        package init(integerLiteral value: Int) { self = .int(value) }
        package init(booleanLiteral value: Bool) { self = .bool(value) }
        package init(arrayLiteral elements: BiDiValue...) { self = .array(elements) }
        package init(dictionaryLiteral elements: (String, BiDiValue)...) {
            self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
        }
        package init(nilLiteral: ()) { self = .null }
    }

    extension BiDiValue: CustomStringConvertible {
        /// The value as compact JSON text, members in key order.
        package var description: String {
            var writer = BiDiJSONWriter(sortedKeys: true)
            writer.write(self)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
    }
#endif
