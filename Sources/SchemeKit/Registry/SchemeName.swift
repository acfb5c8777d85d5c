/// A validated, lowercased URL scheme name such as `app`.
///
/// Scheme names follow RFC 3986 §3.1 (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`) and are
/// compared case-insensitively. The schemes a web engine handles itself — `http`, `https`,
/// `file`, `about`, `data`, `blob`, `javascript`, `ws`, `wss` — are refused, as WebKit refuses
/// to register them.
public struct SchemeName: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The lowercased name.
    public let rawValue: String

    /// The schemes engines keep for themselves.
    package static let reserved: Set<String> = [
        "http", "https", "file", "about", "data", "blob", "javascript", "ws", "wss",
    ]

    /// Validates and lowercases `rawValue`; `nil` when invalid or reserved.
    public init?(rawValue: String) {
        guard let name = try? Self.validate(rawValue) else { return nil }
        self.rawValue = name
    }

    /// Creates a scheme name from a literal. Traps on an invalid literal: a programming error.
    public init(stringLiteral value: String) {
        do {
            self.rawValue = try Self.validate(value)
        } catch {
            preconditionFailure("invalid scheme literal \"\(value)\": \(error)")
        }
    }

    /// Validates and lowercases `name`, throwing what ``SchemeRegistry/register(_:for:host:pathPrefix:)``
    /// throws for it.
    package init(validating name: String) throws(SchemeRegistryError) {
        self.rawValue = try Self.validate(name)
    }

    /// The name.
    public var description: String { rawValue }

    static func validate(_ name: String) throws(SchemeRegistryError) -> String {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, Self.isAlpha(first), bytes.count <= 64 else {
            throw .invalidSchemeName(name)
        }
        for byte in bytes.dropFirst()
        where !(Self.isAlpha(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D || byte == 0x2E) {
            throw .invalidSchemeName(name)
        }
        let lower = name.lowercased()
        guard !reserved.contains(lower) else { throw .reservedScheme(lower) }
        return lower
    }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
