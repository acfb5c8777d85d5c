/// The request of a HAR entry.
package struct HARRequest: Sendable, Hashable {
    /// The method, such as `GET`.
    package var method: String
    /// The absolute URL, query included.
    package var url: String
    /// The protocol, such as `HTTP/1.1` or `h2`.
    package var httpVersion: String
    /// The cookies sent.
    package var cookies: [HARCookie]
    /// The header fields, in order, duplicates kept.
    package var headers: [HARNameValue]
    /// The query parameters.
    package var queryString: [HARNameValue]
    /// The body, or `nil`.
    package var postData: HARPostData?
    /// The head's size in bytes, `-1` when unknown.
    package var headersSize: Int
    /// The body's size in bytes, `-1` when unknown.
    package var bodySize: Int
    /// A comment, or `nil`.
    package var comment: String?
    /// Fields whose names start with `_`.
    package var custom: [String: HARValue]

    /// Creates a request.
    package init(
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

extension HARRequest: Codable {
    /// Reads a request: `method` and `url` are required; missing lists read as empty, missing sizes
    /// as `-1`.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        self.init(
            method: try container.required("method"),
            url: try container.required("url"),
            httpVersion: try container.optional("httpVersion") ?? "",
            cookies: try container.optional("cookies") ?? [],
            headers: try container.optional("headers") ?? [],
            queryString: try container.optional("queryString") ?? [],
            postData: try container.optional("postData"),
            headersSize: try container.optional("headersSize") ?? -1,
            bodySize: try container.optional("bodySize") ?? -1,
            comment: try container.optional("comment"),
            custom: try container.custom()
        )
    }

    /// Writes the request, every list even when empty (HAR 1.2 requires them), custom members included.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encodeCustom(custom)
        try container.encode(method, forKey: "method")
        try container.encode(url, forKey: "url")
        try container.encode(httpVersion, forKey: "httpVersion")
        try container.encode(cookies, forKey: "cookies")
        try container.encode(headers, forKey: "headers")
        try container.encode(queryString, forKey: "queryString")
        try container.encodeIfPresent(postData, forKey: "postData")
        try container.encode(headersSize, forKey: "headersSize")
        try container.encode(bodySize, forKey: "bodySize")
        try container.encodeIfPresent(comment, forKey: "comment")
    }
}
