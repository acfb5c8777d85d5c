/// The value of an `If-Match` or `If-None-Match` field: `*` or a list of entity tags
/// ([RFC 9110 §13.1.1](https://www.rfc-editor.org/rfc/rfc9110#section-13.1.1)).
///
/// Parsing is forgiving in the direction that fails safe: list elements that are not valid entity
/// tags are skipped, so a garbled `If-None-Match` matches nothing (the full response is sent) and a
/// garbled `If-Match` matches nothing (412).
package enum EntityTagCondition: Sendable, Hashable {
    /// `*`: any current representation.
    case any
    /// A list of tags (possibly empty when nothing in the field parsed).
    case tags([EntityTag])

    /// Parses a field value such as `"a", W/"b"` or `*`.
    package init(_ value: String) {
        let bytes = Substring(value).utf8.trimmingWhitespace()
        if bytes.elementsEqual("*".utf8) {
            self = .any
            return
        }
        var tags: [EntityTag] = []
        var rest = bytes
        while !rest.isEmpty {
            rest = rest.trimmingWhitespace()
            if rest.first == UInt8(ascii: ",") {
                rest = rest.dropFirst()
                continue
            }
            if let (tag, after) = EntityTag.parseOne(rest) {
                tags.append(tag)
                rest = after
            } else {
                // Skip the garbled element up to the next comma.
                guard let comma = rest.firstIndex(of: UInt8(ascii: ",")) else { break }
                rest = rest[comma...]
            }
        }
        self = .tags(tags)
    }

    /// Whether `tag` (the current representation's tag, `nil` when it has none) passes this
    /// condition with strong comparison, as `If-Match` requires.
    ///
    /// `*` matches any existing representation, with or without a tag.
    package func strongMatches(_ tag: EntityTag?) -> Bool {
        switch self {
        case .any: true
        case .tags(let tags): tag.map { current in tags.contains { $0.strongMatches(current) } } ?? false
        }
    }

    /// Whether `tag` passes this condition with weak comparison, as `If-None-Match` requires.
    package func weakMatches(_ tag: EntityTag?) -> Bool {
        switch self {
        case .any: true
        case .tags(let tags): tag.map { current in tags.contains { $0.weakMatches(current) } } ?? false
        }
    }
}
