/// A JSON value, as a HAR file holds it: what custom fields (names starting with `_`, such as
/// Chromium's `_initiator`) and the `cache` object keep, so an archive re-encodes without losing
/// them.
///
/// Numbers are `Double`s (JSON's own model); non-finite numbers never occur (the reader refuses
/// them, and encoding one throws). Objects are unordered.
package enum HARValue: Sendable, Hashable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([HARValue])
    /// An object.
    case object([String: HARValue])

    /// The string, if this is one.
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, if this is one.
    package var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    package var objectValue: [String: HARValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    package var arrayValue: [HARValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The member `key` of an object; `nil` for a missing key or a value that is not an object.
    package subscript(key: String) -> HARValue? {
        objectValue?[key]
    }

    /// Reads any JSON value.
    ///
    /// - Throws: `DecodingError` naming the value's path when it cannot be represented: a number
    ///   out of `Double`'s range, a string with a lone surrogate.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let string = try Self.attempt(String.self, container) {
            self = .string(string)
        } else if let number = try Self.attempt(Double.self, container) {
            self = .number(number)
        } else if let flag = try Self.attempt(Bool.self, container) {
            self = .bool(flag)
        } else if let members = try Self.attempt([String: HARValue].self, container) {
            self = .object(members)
        } else {
            self = .array(try container.decode([HARValue].self))
        }
    }

    /// The value as `type`, or `nil` when it is of another JSON type; any other problem (a number
    /// Foundation cannot represent, a lone surrogate) throws, with the value's path.
    private static func attempt<Value: Decodable>(_ type: Value.Type, _ container: any SingleValueDecodingContainer)
        throws -> Value?
    {
        do {
            return try container.decode(type)
        } catch DecodingError.typeMismatch {
            return nil
        } catch let error as DecodingError {
            throw error
        } catch {
            let reason = "not a JSON value Foundation can represent: \(error)"
            throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath, debugDescription: reason))
        }
    }

    /// Writes the value as JSON.
    ///
    /// - Throws: `EncodingError` for a number that is not finite.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}
