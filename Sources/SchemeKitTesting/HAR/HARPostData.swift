/// The body of a HAR request (`postData`).
///
/// A body is ``text``, or ``parameters`` (a form as Chromium records it, possibly without
/// `text`), or a file beside the HAR file (``file``, `_file`, as Playwright and ``HARRecorder``
/// write large bodies). Binary bodies in ``text`` are base64 with ``encoding`` `"base64"` (the
/// `_encoding` extension field: HAR 1.2 has no encoding for request bodies).
package struct HARPostData: Sendable, Hashable {
    /// The body's `Content-Type`.
    package var mimeType: String
    /// The body as text (or base64, see ``encoding``), or `nil`.
    package var text: String?
    /// `"base64"` when ``text`` is base64 (field `_encoding`), or `nil`.
    package var encoding: String?
    /// Form parameters (`params`); empty when not recorded.
    package var parameters: [Parameter]
    /// The name of a file beside the HAR file holding the body (field `_file`), or `nil`.
    package var file: String?
    /// A comment, or `nil`.
    package var comment: String?
    /// Fields whose names start with `_` and are not modelled above.
    package var custom: [String: HARValue]

    /// One form parameter.
    package struct Parameter: Sendable, Hashable {
        /// The name.
        package var name: String
        /// The value, or `nil` (a file upload may have none).
        package var value: String?
        /// The uploaded file's name, or `nil`.
        package var fileName: String?
        /// The uploaded file's type, or `nil`.
        package var contentType: String?
        /// A comment, or `nil`.
        package var comment: String?

        /// Creates a parameter.
        package init(
            name: String, value: String? = nil, fileName: String? = nil, contentType: String? = nil,
            comment: String? = nil
        ) {
            self.name = name
            self.value = value
            self.fileName = fileName
            self.contentType = contentType
            self.comment = comment
        }
    }

    /// Creates a request body.
    package init(
        mimeType: String, text: String? = nil, encoding: String? = nil, parameters: [Parameter] = [],
        file: String? = nil, comment: String? = nil, custom: [String: HARValue] = [:]
    ) {
        self.mimeType = mimeType
        self.text = text
        self.encoding = encoding
        self.parameters = parameters
        self.file = file
        self.comment = comment
        self.custom = custom
    }
}

extension HARPostData: Codable {
    /// Reads a request body; a missing `mimeType` reads as empty, missing `params` as none;
    /// `_encoding` is ``encoding`` and `_file` is ``file``.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        self.init(
            mimeType: try container.optional("mimeType") ?? "",
            text: try container.optional("text"),
            encoding: try container.optional("_encoding"),
            parameters: try container.optional("params") ?? [],
            file: try container.optional("_file"),
            comment: try container.optional("comment"),
            custom: try container.custom(except: ["_file", "_encoding"])
        )
    }

    /// Writes the request body (`params` only when there are some), custom members included.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encodeCustom(custom)
        try container.encode(mimeType, forKey: "mimeType")
        if !parameters.isEmpty { try container.encode(parameters, forKey: "params") }
        try container.encodeIfPresent(text, forKey: "text")
        try container.encodeIfPresent(comment, forKey: "comment")
        try container.encodeIfPresent(encoding, forKey: "_encoding")
        try container.encodeIfPresent(file, forKey: "_file")
    }
}

extension HARPostData.Parameter: Codable {
    /// Reads a form parameter; a missing `name` reads as empty. (Encoding is synthesized: every
    /// property, `nil` ones left out.)
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        self.init(
            name: try container.optional("name") ?? "",
            value: try container.optional("value"),
            fileName: try container.optional("fileName"),
            contentType: try container.optional("contentType"),
            comment: try container.optional("comment")
        )
    }
}
