/// The request of a HAR entry.
public struct HARRequest: Sendable, Hashable {
    /// The method, such as `GET`.
    public var method: String
    /// The absolute URL, query included.
    public var url: String
    /// The protocol, such as `HTTP/1.1` or `h2`.
    public var httpVersion: String
    /// The cookies sent.
    public var cookies: [HARCookie]
    /// The header fields, in order, duplicates kept.
    public var headers: [HARNameValue]
    /// The query parameters.
    public var queryString: [HARNameValue]
    /// The body, or `nil`.
    public var postData: HARPostData?
    /// The head's size in bytes, `-1` when unknown.
    public var headersSize: Int
    /// The body's size in bytes, `-1` when unknown.
    public var bodySize: Int
    /// A comment, or `nil`.
    public var comment: String?
    /// Fields whose names start with `_`.
    public var custom: [String: HARValue]

    /// Creates a request.
    public init(
        method: String, url: String, httpVersion: String = "HTTP/1.1", cookies: [HARCookie] = [],
        headers: [HARNameValue] = [], queryString: [HARNameValue] = [], postData: HARPostData? = nil,
        headersSize: Int = -1, bodySize: Int = 0, comment: String? = nil, custom: [String: HARValue] = [:]
    ) {
        self.method = method
        self.url = url
        self.httpVersion = httpVersion
        self.cookies = cookies
        self.headers = headers
        self.queryString = queryString
        self.postData = postData
        self.headersSize = headersSize
        self.bodySize = bodySize
        self.comment = comment
        self.custom = custom
    }
}
