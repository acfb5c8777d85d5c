/// A page of a HAR file, as browsers export it; entries refer to it by ``id``.
public struct HARPage: Sendable, Hashable {
    /// When the page started loading, ISO 8601 as recorded.
    public var startedDateTime: String
    /// The page's id.
    public var id: String
    /// The page's title.
    public var title: String
    /// `onContentLoad` in milliseconds, or `nil` (`-1` when it did not apply).
    public var onContentLoad: Double?
    /// `onLoad` in milliseconds, or `nil`.
    public var onLoad: Double?
    /// A comment, or `nil`.
    public var comment: String?
    /// Fields whose names start with `_`.
    public var custom: [String: HARValue]

    /// Creates a page.
    public init(
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
