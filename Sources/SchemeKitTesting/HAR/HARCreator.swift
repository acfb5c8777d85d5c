/// The application that wrote a HAR file (`creator`), or the browser it recorded (`browser`).
package struct HARCreator: Sendable, Hashable {
    /// The name, such as `SchemeKit` or `WebInspector`.
    package var name: String
    /// The version.
    package var version: String
    /// A comment, or `nil`.
    package var comment: String?

    /// Creates a creator.
    package init(name: String, version: String, comment: String? = nil) {
        self.name = name
        self.version = version
        self.comment = comment
    }

    /// SchemeKit, what ``HARRecorder`` writes.
    package static let schemeKit = HARCreator(name: "SchemeKit", version: "0.1.0")
}

extension HARCreator: Codable {
    /// Reads a creator; a missing `name` or `version` reads as an empty string. (Encoding is
    /// synthesized: every property, `nil` ones left out.)
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        self.init(
            name: try container.optional("name") ?? "", version: try container.optional("version") ?? "",
            comment: try container.optional("comment"))
    }
}
