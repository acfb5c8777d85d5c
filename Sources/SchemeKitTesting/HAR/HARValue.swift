/// A JSON value, as a HAR file holds it: what custom fields (names starting with `_`, such as
/// Chromium's `_initiator`) and the `cache` object keep, so an archive re-encodes without losing
/// them.
///
/// Numbers are `Double`s (JSON's own model); non-finite numbers never occur (the reader refuses
/// them). Objects are unordered: a key given twice keeps its last value.
public enum HARValue: Sendable, Hashable {
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
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, if this is one.
    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: [String: HARValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [HARValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The member `key` of an object; `nil` for a missing key or a value that is not an object.
    public subscript(key: String) -> HARValue? {
        objectValue?[key]
    }
}
