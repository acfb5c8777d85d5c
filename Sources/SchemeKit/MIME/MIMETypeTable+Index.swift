extension MIMETypeTable {
    /// One table entry: a MIME type and what the detector needs to know about it, computed once.
    struct Entry: Sendable, Equatable {
        /// The MIME type's essence, such as `text/html`.
        let mimeType: String
        /// Whether a charset belongs on it (``MediaType/isText``).
        let isText: Bool
        /// A charset the entry insists on (from a `charset` parameter of an override), else `nil`.
        let charset: String?

        init(mimeType: String, charset: String? = nil) {
            self.mimeType = mimeType
            self.isText = MediaType.isText(essence: mimeType)
            self.charset = charset
        }

        init(_ mediaType: MediaType) {
            self.init(mimeType: mediaType.essence, charset: mediaType.charset)
        }
    }

    /// The generated table, parsed into a dictionary on first use (thread-safe, once per process).
    static let index: [String: Entry] = {
        var index: [String: Entry] = [:]
        index.reserveCapacity(entryCount)
        for line in source.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            index[String(line[..<space])] = Entry(mimeType: String(line[line.index(after: space)...]))
        }
        return index
    }()

    /// The most dots in any extension of the table (`spdx.json` has one), so a lookup knows how
    /// many trailing parts of a file name to try.
    static let maximumDotsInExtension: Int = index.keys.reduce(0) { max($0, MIMEDetector.dotCount(in: $1)) }
}
