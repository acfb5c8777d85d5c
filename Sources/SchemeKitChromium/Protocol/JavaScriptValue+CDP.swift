#if Chromium
    import Foundation
    import SchemeKit
    import SchemeKitBrowserSupport

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

    }
#endif
