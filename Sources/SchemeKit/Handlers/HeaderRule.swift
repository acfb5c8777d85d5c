public import HTTPTypes

/// One rule of a ``HeaderPolicy``: for responses to paths matching ``pattern``, set the field
/// ``name`` to ``value``, or remove it when ``value`` is `nil`.
///
/// Setting replaces every value the response already had for that name (a handler's own
/// `Cache-Control`, say). `Content-Length` and `Transfer-Encoding` describe the body the handler
/// writes and are never changed by a rule (such a rule is ignored).
///
/// ```swift
/// let rule = HeaderRule(PathPattern("/**/*.js")!, .cacheControl, "max-age=3600")
/// let parsed = try HeaderRule(parsing: "/**: Cross-Origin-Opener-Policy: same-origin")
/// ```
public struct HeaderRule: Sendable, Hashable, CustomStringConvertible {
    /// Which request paths the rule applies to.
    public var pattern: PathPattern
    /// The response field the rule sets or removes.
    public var name: HTTPField.Name
    /// The value to set; `nil` removes the field.
    public var value: String?

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - pattern: Which request paths the rule applies to.
    ///   - name: The response field.
    ///   - value: The value to set; `nil` (or an empty string) removes the field.
    public init(_ pattern: PathPattern, _ name: HTTPField.Name, _ value: String?) {
        self.pattern = pattern
        self.name = name
        self.value = value?.isEmpty == true ? nil : value
    }

    /// Parses the `PATTERN: Name: value` syntax of `schemeserve --header`.
    ///
    /// The text is split at its first two colons: the path glob (``PathPattern``, starting with
    /// `/`), the field name (an HTTP token) and the value, each trimmed of spaces and tabs. The
    /// value may itself hold colons (`default-src 'self' https:`). An empty value removes the field:
    /// `/**: Server:`.
    ///
    /// - Throws: ``HeaderRuleSyntaxError`` naming what is wrong: fewer than two colons, a pattern
    ///   that does not start with `/` or has unbalanced braces, a name that is not an HTTP token,
    ///   a value holding CR, LF or NUL.
    public init(parsing text: String) throws(HeaderRuleSyntaxError) {
        guard let first = text.firstIndex(of: ":") else { throw .init(.missingSeparators, text) }
        let afterPattern = text[text.index(after: first)...]
        guard let second = afterPattern.firstIndex(of: ":") else { throw .init(.missingSeparators, text) }
        let patternText = Self.trimmed(text[..<first])
        let nameText = Self.trimmed(afterPattern[..<second])
        let valueText = Self.trimmed(afterPattern[afterPattern.index(after: second)...])
        guard let pattern = PathPattern(patternText) else { throw .init(.invalidPattern(patternText), text) }
        guard !nameText.isEmpty, let name = HTTPField.Name(nameText) else {
            throw .init(.invalidName(nameText), text)
        }
        guard !valueText.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
            throw .init(.invalidValue, text)
        }
        self.init(pattern, name, valueText)
    }

    /// `PATTERN: Name: value`, the syntax ``init(parsing:)`` reads.
    public var description: String { "\(pattern): \(name): \(value ?? "")" }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
