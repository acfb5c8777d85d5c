/// The `log` of a HAR file: who wrote it, its pages and its entries.
package struct HARLog: Sendable, Hashable {
    /// The format version, `1.2` for what SchemeKit writes.
    package var version: String
    /// The application that wrote the file.
    package var creator: HARCreator
    /// The browser recorded, or `nil`.
    package var browser: HARCreator?
    /// The pages, or `nil` (the field is optional).
    package var pages: [HARPage]?
    /// The exchanges, in recording order.
    package var entries: [HAREntry]
    /// A comment, or `nil`.
    package var comment: String?
    /// Fields whose names start with `_`.
    package var custom: [String: HARValue]

    /// Creates a log.
    package init(
        version: String = "1.2", creator: HARCreator = .schemeKit, browser: HARCreator? = nil,
        pages: [HARPage]? = nil, entries: [HAREntry] = [], comment: String? = nil, custom: [String: HARValue] = [:]
    ) {
        self.version = version
        self.creator = creator
        self.browser = browser
        self.pages = pages
        self.entries = entries
        self.comment = comment
        self.custom = custom
    }
}

extension HARLog: Codable {
    /// Reads a log: an array `entries` is required; a missing `version` reads as empty, a missing
    /// `creator` as an empty one.
    ///
    /// - Throws: `DecodingError` for a log that is not one (no `entries` array, a mistyped field
    ///   outside the entries); ``HARError`` naming the entry — its index, its request URL when it
    ///   has one, the field — for an entry that does not read.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        var elements = try container.nestedUnkeyedContainer(forKey: "entries")
        var entries: [HAREntry] = []
        entries.reserveCapacity(elements.count ?? 0)
        while !elements.isAtEnd {
            let index = elements.currentIndex
            let entryDecoder = try elements.superDecoder()
            do {
                entries.append(try HAREntry(from: entryDecoder))
            } catch {
                throw HARError(
                    .invalidEntry, decoding: error, below: entryDecoder.codingPath.count
                ).located(entryIndex: index, entryURL: HAREntry.requestURL(in: entryDecoder))
            }
        }
        self.init(
            version: try container.optional("version") ?? "",
            creator: try container.optional("creator") ?? HARCreator(name: "", version: ""),
            browser: try container.optional("browser"),
            pages: try container.optional("pages"),
            entries: entries,
            comment: try container.optional("comment"),
            custom: try container.custom()
        )
    }

    /// Writes the log, custom members included.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encodeCustom(custom)
        try container.encode(version, forKey: "version")
        try container.encode(creator, forKey: "creator")
        try container.encodeIfPresent(browser, forKey: "browser")
        try container.encodeIfPresent(pages, forKey: "pages")
        try container.encode(entries, forKey: "entries")
        try container.encodeIfPresent(comment, forKey: "comment")
    }
}
