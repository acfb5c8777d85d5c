#if Firefox
    import Foundation
    import SchemeKit

    extension JavaScriptValue {
        /// A value ``BiDiRemoteValue/json(from:)`` made of a `script.RemoteValue` (bytes, which
        /// scripts never return, as base64 text).
        init(_ value: BiDiValue) {
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
