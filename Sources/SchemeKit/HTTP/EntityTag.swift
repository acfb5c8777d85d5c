/// An entity tag: the `ETag` validator of a representation
/// ([RFC 9110 §8.8.3](https://www.rfc-editor.org/rfc/rfc9110#section-8.8.3)).
///
/// A tag is strong (`"abc"`) or weak (`W/"abc"`). Two comparison functions exist:
/// ``strongMatches(_:)`` (both strong and identical; used by `If-Match` and `If-Range`) and
/// ``weakMatches(_:)`` (identical opaque tags, weakness ignored; used by `If-None-Match`).
///
/// ```swift
/// let tag = EntityTag(opaqueTag: "5f-1a2b")
/// tag.headerValue                                   // "\"5f-1a2b\""
/// EntityTag("W/\"5f-1a2b\"")?.weakMatches(tag)      // true
/// EntityTag("W/\"5f-1a2b\"")?.strongMatches(tag)    // false
/// ```
package struct EntityTag: Sendable, Hashable, CustomStringConvertible {
    /// The tag between the quotes, without them.
    package let opaqueTag: String
    /// Whether the tag is weak (`W/` prefix).
    package let isWeak: Bool

    /// Creates a tag.
    ///
    /// - Parameters:
    ///   - opaqueTag: The characters between the quotes; must be `etagc` characters (visible ASCII
    ///     except `"`, or bytes ≥ 0x80).
    ///   - isWeak: Whether the tag is weak. Default: `false` (strong).
    /// - Precondition: `opaqueTag` holds only `etagc` characters.
    package init(opaqueTag: String, isWeak: Bool = false) {
        precondition(opaqueTag.utf8.allSatisfy(Self.isETagCharacter), "invalid entity-tag characters")
        self.opaqueTag = opaqueTag
        self.isWeak = isWeak
    }

    /// Parses one entity tag such as `"abc"` or `W/"abc"` (surrounding whitespace allowed).
    ///
    /// - Returns: `nil` when the value is not exactly one valid entity tag.
    package init?(_ value: String) {
        let trimmed = Substring(value).utf8.trimmingWhitespace()
        guard let (tag, rest) = Self.parseOne(trimmed), rest.isEmpty else { return nil }
        self = tag
    }

    /// The field value: `"tag"` or `W/"tag"`.
    package var headerValue: String { isWeak ? "W/\"\(opaqueTag)\"" : "\"\(opaqueTag)\"" }

    /// ``headerValue``.
    package var description: String { headerValue }

    /// Strong comparison: both tags strong and their opaque tags identical.
    package func strongMatches(_ other: EntityTag) -> Bool {
        !isWeak && !other.isWeak && opaqueTag == other.opaqueTag
    }

    /// Weak comparison: opaque tags identical, whether either is weak or not.
    package func weakMatches(_ other: EntityTag) -> Bool {
        opaqueTag == other.opaqueTag
    }

    static func isETagCharacter(_ byte: UInt8) -> Bool {
        byte == 0x21 || (byte >= 0x23 && byte <= 0x7E) || byte >= 0x80
    }

    /// Parses one tag at the start of `bytes`; returns it and what follows.
    static func parseOne(_ bytes: Substring.UTF8View) -> (EntityTag, Substring.UTF8View)? {
        var rest = bytes
        var weak = false
        if rest.starts(with: "W/".utf8) {
            weak = true
            rest = rest.dropFirst(2)
        }
        guard rest.first == UInt8(ascii: "\"") else { return nil }
        rest = rest.dropFirst()
        guard let close = rest.firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        let opaque = rest[..<close]
        guard opaque.allSatisfy(isETagCharacter) else { return nil }
        let tag = EntityTag(validatedOpaqueTag: String(Substring(opaque)), isWeak: weak)
        return (tag, rest[rest.index(after: close)...])
    }

    private init(validatedOpaqueTag: String, isWeak: Bool) {
        self.opaqueTag = validatedOpaqueTag
        self.isWeak = isWeak
    }
}

extension Substring.UTF8View {
    /// The view without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> Substring.UTF8View {
        var view = self
        while let first = view.first, first == 0x20 || first == 0x09 { view = view.dropFirst() }
        while let last = view.last, last == 0x20 || last == 0x09 { view = view.dropLast() }
        return view
    }
}
