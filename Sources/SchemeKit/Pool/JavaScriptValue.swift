public import Foundation

/// A value a page's script produced, as every engine adapter returns it from `evaluate`: the
/// JSON-compatible part of JavaScript's values.
///
/// WebKitGTK's `WebViewSession.evaluate(_:)`, Chromium's `ChromiumPage.evaluate(_:)` and
/// Firefox's page return the same type with the same contract: a Promise is awaited and its value
/// returned as the page's own `JSON.stringify` gives it — an object's `toJSON` is used, a `Date` is
/// its ISO string, a `Map` or `Set` is `{}`, a member that is `undefined`, a function or a symbol is
/// left out of an object and ``null`` in an array, `NaN` and the infinities are ``null`` and `-0` is
/// `0` — except that a `BigInt` becomes its decimal digits as a string, and a value that is
/// `undefined`, a function or a symbol is ``null``. A value with a cycle fails, as `JSON.stringify`
/// throws for it.
///
/// ``description`` is the value as compact JSON text, so printing a result shows what the page
/// computed:
///
/// ```swift
/// let report = try await page.evaluate("window.sampleReport")
/// print(report)                          // {"css":true,"json":true,…}
/// if report["css"]?.boolValue == true { … }
/// let typed = try report.decode(as: SampleReport.self)   // any Decodable
/// ```
public enum JavaScriptValue: Sendable, Hashable {
    /// `null` (and what JSON has no form for: `undefined`, `NaN`, `±Infinity`, functions).
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (JavaScript has one number type: a double).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JavaScriptValue])
    /// An object's own enumerable string-keyed members.
    case object([String: JavaScriptValue])

    /// The member named `key` of an object; `nil` for a missing member or a non-object.
    public subscript(key: String) -> JavaScriptValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index` of an array; `nil` out of range or for a non-array.
    public subscript(index: Int) -> JavaScriptValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// The Boolean, or `nil`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number, or `nil`.
    public var doubleValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number when it is a whole number an `Int` holds exactly, or `nil`.
    public var intValue: Int? {
        guard case .number(let value) = self, value.rounded() == value, abs(value) <= 9_007_199_254_740_992
        else { return nil }
        return Int(value)
    }

    /// The string, or `nil`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements of an array, or `nil`.
    public var arrayValue: [JavaScriptValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members of an object, or `nil`.
    public var objectValue: [String: JavaScriptValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// A number, mapped as `JSON.stringify` maps it: `NaN` and the infinities are ``null``.
    package static func number(jsonCompatible value: Double) -> JavaScriptValue {
        value.isFinite ? .number(value == 0 ? 0 : value) : .null
    }

    /// Converts this value into a `Decodable` type.
    ///
    /// - Throws: `DecodingError` when the value does not have the type's shape.
    public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(description.utf8))
    }

    /// A JavaScript function that gives its `this` value as the JSON text this type reads: what
    /// `JSON.stringify` makes of it, a `BigInt` as its digits, and `null` for what it leaves out
    /// (`undefined`, a function, a symbol). It throws `TypeError` for a cycle, as `JSON.stringify`
    /// does. Strict, so a primitive `this` stays primitive.
    ///
    /// Every adapter runs it in the page on the value an expression produced, so the contract is
    /// the page's own `JSON.stringify` on every engine (`toJSON`, `Date`, `Map` as `{}`, typed arrays
    /// as objects), not each protocol's serialisation.
    package static let jsonTextFunction = """
        function () {
          'use strict';
          const text = JSON.stringify(this, (key, value) => typeof value === 'bigint' ? value.toString() : value);
          return text === undefined ? 'null' : text;
        }
        """

    /// Reads JSON text (what `JSON.stringify` produced).
    ///
    /// - Throws: `DecodingError` when `json` is not JSON.
    public init(json: some DataProtocol) throws {
        self = try JSONDecoder().decode(JavaScriptValue.self, from: Data(json))
    }
}

extension JavaScriptValue: CustomStringConvertible {
    /// The value as compact JSON text with members in key order: `true`, `"text"`, `42`, `1.5`,
    /// `{"a":[1,2]}`. Whole numbers print without a fraction, as JavaScript prints them.
    public var description: String {
        var text = ""
        write(to: &text)
        return text
    }

    private func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let value):
            if value.rounded() == value, abs(value) <= 9_007_199_254_740_992 {
                text += String(Int64(value))
            } else {
                text += "\(value)"
            }
        case .string(let value): Self.writeString(value, to: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                element.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                Self.writeString(key, to: &text)
                text += ":"
                members[key]!.write(to: &text)
            }
            text += "}"
        }
    }

    private static func writeString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

extension JavaScriptValue: Codable {
    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JavaScriptValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JavaScriptValue].self))
        }
    }

    /// Encodes as the JSON value it is.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
