import Foundation

extension HARError {
    /// A `DecodingError` (or another error met while decoding) as a `HARError` of `kind`, its field
    /// the error's coding path without its first `depth` components (the path of the entry it is
    /// in), such as `response.content.size` or `request.headers[2].name`.
    init(_ kind: Kind, decoding error: any Error, below depth: Int = 0) {
        let (path, reason): ([any CodingKey], String)
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?: (path, reason) = (context.codingPath + [key], "missing")
        case .valueNotFound(_, let context)?: (path, reason) = (context.codingPath, "missing")
        case .typeMismatch(let type, let context)?: (path, reason) = (context.codingPath, Self.expected(type))
        case .dataCorrupted(let context)?: (path, reason) = (context.codingPath, context.debugDescription)
        default: (path, reason) = ([], "\(error)")
        }
        self.init(kind, reason, field: Self.fieldPath(path.dropFirst(depth)))
    }

    /// An `EncodingError` as a `HARError`: `invalidEntry` naming the entry (index and URL) when the
    /// value is in one, else `invalidArchive`.
    init(encoding error: any Error, in archive: HARArchive) {
        guard case .invalidValue(_, let context)? = error as? EncodingError else {
            self.init(.invalidArchive, "\(error)")
            return
        }
        let path = context.codingPath
        if path.count >= 3, path[0].stringValue == "log", path[1].stringValue == "entries",
            let index = path[2].intValue, archive.entries.indices.contains(index)
        {
            self.init(
                .invalidEntry, context.debugDescription, entryIndex: index,
                entryURL: archive.entries[index].request.url, field: Self.fieldPath(path.dropFirst(3)))
        } else {
            self.init(.invalidArchive, context.debugDescription, field: Self.fieldPath(path[...]))
        }
    }

    /// `response.content.size`, `log.pages[0].id`; `nil` for an empty path.
    private static func fieldPath(_ path: ArraySlice<any CodingKey>) -> String? {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? nil : text
    }

    /// "expected a string", "expected an object" … for a type mismatch on `type`.
    private static func expected(_ type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Dictionary") { return "expected an object" }
        if name.hasPrefix("Array") { return "expected an array" }
        switch name {
        case "String": return "expected a string"
        case "Bool": return "expected true or false"
        case "Double": return "expected a number"
        case "Int": return "expected an integer"
        default: return "expected \(name)"
        }
    }
}
