/// The `log` of a HAR file: who wrote it, its pages and its entries.
public struct HARLog: Sendable, Hashable {
    /// The format version, `1.2` for what SchemeKit writes.
    public var version: String
    /// The application that wrote the file.
    public var creator: HARCreator
    /// The browser recorded, or `nil`.
    public var browser: HARCreator?
    /// The pages, or `nil` (the field is optional).
    public var pages: [HARPage]?
    /// The exchanges, in recording order.
    public var entries: [HAREntry]
    /// A comment, or `nil`.
    public var comment: String?
    /// Fields whose names start with `_`.
    public var custom: [String: HARValue]

    /// Creates a log.
    public init(
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
