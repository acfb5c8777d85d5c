#if Chromium
    import Foundation
    import SchemeKit

    extension JavaScriptValue {
        /// The value of a `Runtime.RemoteObject` returned by value: its `value`, or what its
        /// `unserializableValue` stands for (`NaN` and the infinities as `null`, `-0` as `0`, a
        /// `BigInt` such as `12n` as its digits).
        init(remoteObject object: CDPValue) {
            if let value = object["value"] {
                self.init(value)
            } else if let text = object["unserializableValue"]?.stringValue {
                if text.hasSuffix("n") {
                    self = .string(String(text.dropLast()))
                } else if text == "-0" {
                    self = .number(0)
                } else {
                    self = .null
                }
            } else {
                self = .null
            }
        }

        /// A protocol value as a script value (bytes, which scripts never return, as base64 text).
        init(_ value: CDPValue) {
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
