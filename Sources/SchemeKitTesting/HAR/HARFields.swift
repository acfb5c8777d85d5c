/// The members of one JSON object of a HAR file, read with typed errors that name the field.
///
/// A missing member and a `null` one read as `nil` (browsers write `null` for fields they do not
/// know); a member of the wrong type throws a ``HARError`` of the reader's kind naming its path
/// (`response.content.size`). The caller adds the entry's index and URL.
struct HARFields {
    let members: [String: HARValue]
    /// The object's path, such as `response.content`; empty for an entry itself.
    let path: String
    let kind: HARError.Kind

    /// Reads `value` as an object.
    init(_ value: HARValue, path: String, kind: HARError.Kind) throws(HARError) {
        guard case .object(let members) = value else {
            throw HARError(kind, "expected an object", field: path.isEmpty ? nil : path)
        }
        self.members = members
        self.path = path
        self.kind = kind
    }

    private func fieldPath(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    private func wrongType(_ name: String, _ expected: String) -> HARError {
        HARError(kind, "expected \(expected)", field: fieldPath(name))
    }

    /// The member, unless it is missing or `null`.
    private func present(_ name: String) -> HARValue? {
        guard let value = members[name], value != .null else { return nil }
        return value
    }

    func string(_ name: String) throws(HARError) -> String? {
        guard let value = present(name) else { return nil }
        guard case .string(let string) = value else { throw wrongType(name, "a string") }
        return string
    }

    func requiredString(_ name: String) throws(HARError) -> String {
        guard let string = try string(name) else { throw HARError(kind, "missing", field: fieldPath(name)) }
        return string
    }

    func double(_ name: String) throws(HARError) -> Double? {
        guard let value = present(name) else { return nil }
        guard case .number(let number) = value else { throw wrongType(name, "a number") }
        return number
    }

    func int(_ name: String) throws(HARError) -> Int? {
        guard let number = try double(name) else { return nil }
        guard let integer = Int(exactly: number) else { throw wrongType(name, "an integer") }
        return integer
    }

    func requiredInt(_ name: String) throws(HARError) -> Int {
        guard let integer = try int(name) else { throw HARError(kind, "missing", field: fieldPath(name)) }
        return integer
    }

    func bool(_ name: String) throws(HARError) -> Bool? {
        guard let value = present(name) else { return nil }
        guard case .bool(let flag) = value else { throw wrongType(name, "true or false") }
        return flag
    }

    func object(_ name: String) throws(HARError) -> HARFields? {
        guard let value = present(name) else { return nil }
        return try HARFields(value, path: fieldPath(name), kind: kind)
    }

    func requiredObject(_ name: String) throws(HARError) -> HARFields {
        guard let object = try object(name) else { throw HARError(kind, "missing", field: fieldPath(name)) }
        return object
    }

    /// The member's elements, each read as an object.
    func objects(_ name: String) throws(HARError) -> [HARFields]? {
        guard let value = present(name) else { return nil }
        guard case .array(let elements) = value else { throw wrongType(name, "an array") }
        var result: [HARFields] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            result.append(try HARFields(element, path: "\(fieldPath(name))[\(index)]", kind: kind))
        }
        return result
    }

    /// The raw member (any type), unless missing; `null` is kept.
    func raw(_ name: String) -> HARValue? { members[name] }

    /// Members whose names start with `_`, except `modelled` ones.
    func custom(except modelled: Set<String> = []) -> [String: HARValue] {
        members.filter { $0.key.hasPrefix("_") && !modelled.contains($0.key) }
    }
}
