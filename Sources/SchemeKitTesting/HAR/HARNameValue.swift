/// A name and a value: a header (`headers`) or a query parameter (`queryString`) of a HAR entry.
///
/// Headers keep their order and duplicates (two `Set-Cookie`s are two pairs), and their names as
/// recorded (HTTP/2 recordings have lowercase names; Chromium's also list pseudo-headers such as
/// `:authority`, which replay skips).
public struct HARNameValue: Sendable, Hashable {
    /// The name.
    public var name: String
    /// The value.
    public var value: String
    /// A comment, or `nil`.
    public var comment: String?

    /// Creates a pair.
    public init(name: String, value: String, comment: String? = nil) {
        self.name = name
        self.value = value
        self.comment = comment
    }
}
