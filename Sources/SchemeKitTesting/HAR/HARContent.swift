/// The body of a HAR response (`content`).
///
/// The body is ``text`` (decoded: HAR bodies carry no content coding), base64 when ``encoding``
/// is `"base64"`, or a file beside the HAR file named by ``file`` (`_file`, as Playwright writes
/// it). Browsers often leave ``text`` out (bodies they did not keep); such an entry replays with
/// an empty body.
package struct HARContent: Sendable, Hashable {
    /// The body's length in bytes as recorded (`-1` or `0` when unknown).
    package var size: Int
    /// Bytes saved by compression, or `nil`.
    package var compression: Int?
    /// The body's `Content-Type` (`x-unknown` when the browser did not know it).
    package var mimeType: String
    /// The body, as text or base64, or `nil`.
    package var text: String?
    /// `"base64"` when ``text`` is base64, or `nil`.
    package var encoding: String?
    /// The name of a file beside the HAR file holding the body (field `_file`), or `nil`.
    package var file: String?
    /// A comment, or `nil`.
    package var comment: String?
    /// Fields whose names start with `_` and are not modelled above.
    package var custom: [String: HARValue]

    /// Creates a response body.
    package init(
        size: Int, compression: Int? = nil, mimeType: String, text: String? = nil, encoding: String? = nil,
        file: String? = nil, comment: String? = nil, custom: [String: HARValue] = [:]
    ) {
        self.size = size
        self.compression = compression
        self.mimeType = mimeType
        self.text = text
        self.encoding = encoding
        self.file = file
        self.comment = comment
        self.custom = custom
    }
}

extension HARContent: Codable {
    /// Reads a body; a missing `size` reads as `-1`, a missing `mimeType` as empty; `_file` is
    /// ``file``.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        self.init(
            size: try container.optional("size") ?? -1,
            compression: try container.optional("compression"),
            mimeType: try container.optional("mimeType") ?? "",
            text: try container.optional("text"),
            encoding: try container.optional("encoding"),
            file: try container.optional("_file"),
            comment: try container.optional("comment"),
            custom: try container.custom(except: ["_file"])
        )
    }

    /// Writes the body, ``file`` as `_file`, custom members included.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encodeCustom(custom)
        try container.encode(size, forKey: "size")
        try container.encodeIfPresent(compression, forKey: "compression")
        try container.encode(mimeType, forKey: "mimeType")
        try container.encodeIfPresent(text, forKey: "text")
        try container.encodeIfPresent(encoding, forKey: "encoding")
        try container.encodeIfPresent(comment, forKey: "comment")
        try container.encodeIfPresent(file, forKey: "_file")
    }
}
