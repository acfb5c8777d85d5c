/// A member name of a HAR object. One dynamic key type serves the model's own members (written as
/// string literals) and the members it does not model, the `_`-prefixed fields browsers add
/// (Chromium's `_initiator`, Playwright's `_file` …), so both go through the same container.
struct HARCodingKey: CodingKey, ExpressibleByStringLiteral, Hashable {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    init(stringLiteral value: String) { stringValue = value }
}

extension KeyedDecodingContainer where Key == HARCodingKey {
    /// The member `key`, or `nil` when it is missing or `null` (browsers write `null` for what they
    /// do not know).
    ///
    /// - Throws: `DecodingError` naming the member's path when it has the wrong type — also where
    ///   Foundation's own error would name none (a fraction or an out-of-range number where an
    ///   integer belongs, a lone surrogate in a string).
    func optional<Value: Decodable>(_ key: HARCodingKey, as type: Value.Type = Value.self) throws -> Value? {
        do {
            return try decodeIfPresent(Value.self, forKey: key)
        } catch let error as DecodingError {
            throw error
        } catch let error as HARError {
            throw error  // an entry of a log, already located
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath + [key], debugDescription: "not a valid \(Value.self): \(error)"))
        }
    }

    /// The member `key`, which must be present and not `null`.
    ///
    /// - Throws: `DecodingError.keyNotFound` when it is missing or `null`; the errors of ``optional(_:as:)``.
    func required<Value: Decodable>(_ key: HARCodingKey, as type: Value.Type = Value.self) throws -> Value {
        guard let value = try optional(key, as: Value.self) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return value
    }

    /// The member `key` as an object's container, or `nil` when it is missing or `null`.
    func nested(_ key: HARCodingKey) throws -> KeyedDecodingContainer<HARCodingKey>? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try nestedContainer(keyedBy: HARCodingKey.self, forKey: key)
    }

    /// The member `key` as any JSON value (`null` kept as ``HARValue/null``), or `nil` when it is missing.
    func value(_ key: HARCodingKey) throws -> HARValue? {
        contains(key) ? try decode(HARValue.self, forKey: key) : nil
    }

    /// The members whose names start with `_`, except the `modelled` ones, as JSON values.
    func custom(except modelled: Set<String> = []) throws -> [String: HARValue] {
        var members: [String: HARValue] = [:]
        for key in allKeys where key.stringValue.hasPrefix("_") && !modelled.contains(key.stringValue) {
            members[key.stringValue] = try decode(HARValue.self, forKey: key)
        }
        return members
    }
}

extension KeyedEncodingContainer where Key == HARCodingKey {
    /// Writes the custom members (written before the modelled ones, which win a clash of names).
    mutating func encodeCustom(_ members: [String: HARValue]) throws {
        for (name, value) in members {
            try encode(value, forKey: HARCodingKey(stringValue: name))
        }
    }
}
