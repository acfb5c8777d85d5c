extension MediaType {
    /// Parses `text` with WHATWG's [parse a MIME type](https://mimesniff.spec.whatwg.org/#parse-a-mime-type).
    static func parse(_ text: String) -> MediaType? {
        let scalars = Array(text.unicodeScalars)
        var end = scalars.count
        var position = 0
        while position < end, isHTTPWhitespace(scalars[position]) { position += 1 }
        while end > position, isHTTPWhitespace(scalars[end - 1]) { end -= 1 }

        let typeStart = position
        while position < end, scalars[position] != "/" { position += 1 }
        let type = String(String.UnicodeScalarView(scalars[typeStart..<position]))
        guard position < end, !type.isEmpty, type.unicodeScalars.allSatisfy(isTokenScalar) else { return nil }
        position += 1  // "/"

        let subtypeStart = position
        while position < end, scalars[position] != ";" { position += 1 }
        var subtypeEnd = position
        while subtypeEnd > subtypeStart, isHTTPWhitespace(scalars[subtypeEnd - 1]) { subtypeEnd -= 1 }
        let subtype = String(String.UnicodeScalarView(scalars[subtypeStart..<subtypeEnd]))
        guard !subtype.isEmpty, subtype.unicodeScalars.allSatisfy(isTokenScalar) else { return nil }

        var parameters: [Parameter] = []
        while position < end {
            position += 1  // ";"
            while position < end, isHTTPWhitespace(scalars[position]) { position += 1 }
            let nameStart = position
            while position < end, scalars[position] != ";", scalars[position] != "=" { position += 1 }
            let name = String(String.UnicodeScalarView(scalars[nameStart..<position])).lowercased()
            guard position < end else { break }
            if scalars[position] == ";" { continue }
            position += 1  // "="

            var value = String.UnicodeScalarView()
            if position < end, scalars[position] == "\"" {
                position += 1
                while position < end, scalars[position] != "\"" {
                    if scalars[position] == "\\", position + 1 < end { position += 1 }
                    value.append(scalars[position])
                    position += 1
                }
                while position < end, scalars[position] != ";" { position += 1 }
            } else {
                let valueStart = position
                while position < end, scalars[position] != ";" { position += 1 }
                var valueEnd = position
                while valueEnd > valueStart, isHTTPWhitespace(scalars[valueEnd - 1]) { valueEnd -= 1 }
                value.append(contentsOf: scalars[valueStart..<valueEnd])
                if value.isEmpty { continue }
            }
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(isTokenScalar),
                value.allSatisfy(isQuotedStringScalar),
                !parameters.contains(where: { $0.name == name })
            else { continue }
            parameters.append(Parameter(name: name, value: String(value)))
        }
        return MediaType(type: type, subtype: subtype, parameters: parameters)
    }

    /// `value` as a token, or as a quoted string when it is empty or not a token.
    static func serialize(value: String) -> String {
        if !value.isEmpty, value.unicodeScalars.allSatisfy(isTokenScalar) { return value }
        var quoted = "\""
        for scalar in value.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { quoted.unicodeScalars.append("\\") }
            quoted.unicodeScalars.append(scalar)
        }
        quoted += "\""
        return quoted
    }

    /// HTTP whitespace: tab, line feed, carriage return, space.
    private static func isHTTPWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    /// An HTTP token character (RFC 9110 §5.6.2).
    private static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~":
            true
        default:
            false
        }
    }

    /// A character allowed inside an HTTP quoted string: tab, 0x20–0x7E, 0x80–0xFF.
    private static func isQuotedStringScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || (0x20...0x7E).contains(scalar.value) || (0x80...0xFF).contains(scalar.value)
    }
}
