#if Firefox
    package import SchemeKitBrowserSupport

    /// A JSON value of a WebDriver BiDi message, as SchemeKit reads and writes them (the browser
    /// protocols' shared ``ProtocolValue``).
    ///
    /// Integers that fit an `Int` read as `int`, other numbers as `double`. Objects are unordered;
    /// a key given twice keeps its last value. `binary` is never read: it is how a body goes out,
    /// written straight into the message as a base64 string.
    package typealias BiDiValue = ProtocolValue

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
