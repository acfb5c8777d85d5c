/// Why a header rule's text (``HeaderRule/init(parsing:)``) does not parse.
public struct HeaderRuleSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    enum Reason: Hashable {
        case missingSeparators
        case invalidPattern(String)
        case invalidName(String)
        case invalidValue
    }

    let reason: Reason
    /// The text that did not parse.
    public let text: String

    init(_ reason: Reason, _ text: String) {
        self.reason = reason
        self.text = text
    }

    /// A one-line explanation naming the part at fault.
    public var description: String {
        switch reason {
        case .missingSeparators: "expected PATTERN: Name: value"
        case .invalidPattern(let pattern):
            "the path pattern '\(pattern)' must start with / (braces balanced, not nested)"
        case .invalidName(let name): "'\(name)' is not a header field name"
        case .invalidValue: "the value must not contain CR, LF or NUL"
        }
    }
}
