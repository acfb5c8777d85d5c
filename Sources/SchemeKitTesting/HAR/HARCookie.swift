/// A cookie of a HAR request (`Cookie`) or response (`Set-Cookie`). Informational: replay sends
/// the recorded `Set-Cookie` headers, not these.
package struct HARCookie: Sendable, Hashable {
    /// The name.
    package var name: String
    /// The value.
    package var value: String
    /// The path, or `nil`.
    package var path: String?
    /// The domain, or `nil`.
    package var domain: String?
    /// The expiry as written (ISO 8601 in HAR 1.2), or `nil`.
    package var expires: String?
    /// Whether the cookie is HTTP-only, or `nil` when not recorded.
    package var httpOnly: Bool?
    /// Whether the cookie is secure-only, or `nil` when not recorded.
    package var secure: Bool?
    /// `SameSite` (`Strict`, `Lax`, `None`) as Chromium records it, or `nil`.
    package var sameSite: String?
    /// A comment, or `nil`.
    package var comment: String?

    /// Creates a cookie.
    package init(
        name: String, value: String, path: String? = nil, domain: String? = nil, expires: String? = nil,
        httpOnly: Bool? = nil, secure: Bool? = nil, sameSite: String? = nil, comment: String? = nil
    ) {
        self.name = name
        self.value = value
        self.path = path
        self.domain = domain
        self.expires = expires
        self.httpOnly = httpOnly
        self.secure = secure
        self.sameSite = sameSite
        self.comment = comment
    }
}

extension HARCookie: Codable {
    /// Reads a cookie; a missing `name` or `value` reads as an empty string. (Encoding is
    /// synthesized: every property, `nil` ones left out.)
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        self.init(
            name: try container.optional("name") ?? "",
            value: try container.optional("value") ?? "",
            path: try container.optional("path"),
            domain: try container.optional("domain"),
            expires: try container.optional("expires"),
            httpOnly: try container.optional("httpOnly"),
            secure: try container.optional("secure"),
            sameSite: try container.optional("sameSite"),
            comment: try container.optional("comment")
        )
    }
}
