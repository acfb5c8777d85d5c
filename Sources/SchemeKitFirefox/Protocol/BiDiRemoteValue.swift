#if Firefox
    import SchemeKitBrowserSupport

    /// Turns a `script.RemoteValue` (what `script.evaluate` returns) into plain JSON, close to what
    /// `JSON.stringify` makes of the same value.
    ///
    /// `undefined`, `null`, `NaN` and ±`Infinity` become `null`; `-0` is 0; a `bigint` becomes its
    /// decimal string and a `date` its ISO string; arrays, sets and objects (and maps with string
    /// keys) keep their members; anything else (functions, nodes, windows, promises, errors…) is
    /// `null`. <https://w3c.github.io/webdriver-bidi/#type-script-RemoteValue>
    package enum BiDiRemoteValue {
        /// The JSON for `remote`.
        ///
        /// - Throws: ``BiDiProtocolError`` when `remote` is not a RemoteValue.
        package static func json(from remote: BiDiValue) throws(BiDiProtocolError) -> BiDiValue {
            guard let type = remote["type"]?.stringValue else {
                throw BiDiProtocolError("a RemoteValue without a type")
            }
            let value = remote["value"]
            switch type {
            case "undefined", "null": return .null
            case "string", "bigint", "date":
                guard let text = value?.stringValue else { throw BiDiProtocolError("a \(type) without its text") }
                return .string(text)
            case "boolean":
                guard let flag = value?.boolValue else { throw BiDiProtocolError("a boolean without its value") }
                return .bool(flag)
            case "number":
                switch value {
                case .int(let number)?: return .int(number)
                case .double(let number)?: return .double(number)
                case .string("-0")?: return .int(0)
                case .string("NaN")?, .string("Infinity")?, .string("-Infinity")?: return .null
                default: throw BiDiProtocolError("a number RemoteValue with value \(value ?? .null)")
                }
            case "array", "set":
                guard let value else { return .array([]) }  // past the serialisation depth
                guard let elements = value.arrayValue else { throw BiDiProtocolError("an \(type) that is no list") }
                var converted: [BiDiValue] = []
                for element in elements { converted.append(try json(from: element)) }
                return .array(converted)
            case "object", "map":
                guard let value else { return .object([:]) }
                guard let pairs = value.arrayValue else { throw BiDiProtocolError("an \(type) that is no list") }
                var members: [String: BiDiValue] = [:]
                for pair in pairs {
                    guard let parts = pair.arrayValue, parts.count == 2 else {
                        throw BiDiProtocolError("an \(type) member that is not a pair")
                    }
                    let key: String
                    switch (parts[0], parts[0]["type"]?.stringValue) {
                    case (.string(let name), _): key = name  // an object's property name
                    case (_, "string"?): key = parts[0]["value"]?.stringValue ?? ""
                    case (_, "number"?): key = try json(from: parts[0]).description
                    default: continue  // a map key JSON cannot name
                    }
                    members[key] = try json(from: parts[1])
                }
                return .object(members)
            default:
                return .null
            }
        }
    }
#endif
