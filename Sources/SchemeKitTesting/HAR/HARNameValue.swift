/// A name and a value: a header (`headers`) or a query parameter (`queryString`) of a HAR entry.
///
/// Headers keep their order and duplicates (two `Set-Cookie`s are two pairs), and their names as
/// recorded (HTTP/2 recordings have lowercase names; Chromium's also list pseudo-headers such as
/// `:authority`, which replay skips).
package struct HARNameValue: Sendable, Hashable {
    /// The name.
    package var name: String
    /// The value.
    package var value: String
    /// A comment, or `nil`.
    package var comment: String?

    /// Creates a pair.
    package init(name: String, value: String, comment: String? = nil) {
        self.name = name
        self.value = value
        self.comment = comment
    }
}

extension HARNameValue: Codable {
    /// Reads a pair; a missing `name` or `value` reads as an empty string. (Encoding is synthesized:
    /// every property, `nil` ones left out.)
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        self.init(
            name: try container.optional("name") ?? "", value: try container.optional("value") ?? "",
            comment: try container.optional("comment"))
    }
}
