/// The body of a HAR request (`postData`).
///
/// A body is ``text``, or ``parameters`` (a form as Chromium records it, possibly without
/// `text`), or a file beside the HAR file (``file``, `_file`, as Playwright and ``HARRecorder``
/// write large bodies). Binary bodies in ``text`` are base64 with ``encoding`` `"base64"` (the
/// `_encoding` extension field: HAR 1.2 has no encoding for request bodies).
public struct HARPostData: Sendable, Hashable {
    /// The body's `Content-Type`.
    public var mimeType: String
    /// The body as text (or base64, see ``encoding``), or `nil`.
    public var text: String?
    /// `"base64"` when ``text`` is base64 (field `_encoding`), or `nil`.
    public var encoding: String?
    /// Form parameters (`params`); empty when not recorded.
    public var parameters: [Parameter]
    /// The name of a file beside the HAR file holding the body (field `_file`), or `nil`.
    public var file: String?
    /// A comment, or `nil`.
    public var comment: String?
    /// Fields whose names start with `_` and are not modelled above.
    public var custom: [String: HARValue]

    /// One form parameter.
    public struct Parameter: Sendable, Hashable {
        /// The name.
        public var name: String
        /// The value, or `nil` (a file upload may have none).
        public var value: String?
        /// The uploaded file's name, or `nil`.
        public var fileName: String?
        /// The uploaded file's type, or `nil`.
        public var contentType: String?
        /// A comment, or `nil`.
        public var comment: String?

        /// Creates a parameter.
        public init(
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
    public init(
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
