/// A page of a HAR file, as browsers export it; entries refer to it by ``id``.
package struct HARPage: Sendable, Hashable {
    /// When the page started loading, ISO 8601 as recorded.
    package var startedDateTime: String
    /// The page's id.
    package var id: String
    /// The page's title.
    package var title: String
    /// `onContentLoad` in milliseconds, or `nil` (`-1` when it did not apply).
    package var onContentLoad: Double?
    /// `onLoad` in milliseconds, or `nil`.
    package var onLoad: Double?
    /// A comment, or `nil`.
    package var comment: String?
    /// Fields whose names start with `_`.
    package var custom: [String: HARValue]

    /// Creates a page.
    package init(
        startedDateTime: String, id: String, title: String, onContentLoad: Double? = nil, onLoad: Double? = nil,
        comment: String? = nil, custom: [String: HARValue] = [:]
    ) {
        self.startedDateTime = startedDateTime
        self.id = id
        self.title = title
        self.onContentLoad = onContentLoad
        self.onLoad = onLoad
        self.comment = comment
        self.custom = custom
    }
}

extension HARPage: Codable {
    /// Reads a page; missing strings read as empty, `pageTimings` may be missing.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        let timings = try container.nested("pageTimings")
        self.init(
            startedDateTime: try container.optional("startedDateTime") ?? "",
            id: try container.optional("id") ?? "",
            title: try container.optional("title") ?? "",
            onContentLoad: try timings?.optional("onContentLoad"),
            onLoad: try timings?.optional("onLoad"),
            comment: try container.optional("comment"),
            custom: try container.custom()
        )
    }

    /// Writes the page, `pageTimings` always (HAR 1.2 requires it), custom members included.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encodeCustom(custom)
        try container.encode(startedDateTime, forKey: "startedDateTime")
        try container.encode(id, forKey: "id")
        try container.encode(title, forKey: "title")
        var timings = container.nestedContainer(keyedBy: HARCodingKey.self, forKey: "pageTimings")
        try timings.encodeIfPresent(onContentLoad, forKey: "onContentLoad")
        try timings.encodeIfPresent(onLoad, forKey: "onLoad")
        try container.encodeIfPresent(comment, forKey: "comment")
    }
}
