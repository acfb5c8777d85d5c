/// The response of a HAR entry.
///
/// A status below 100 (Chromium writes 0, with `_error`, for a request that failed in the
/// network) replays as a task failure.
package struct HARResponse: Sendable, Hashable {
    /// The status code.
    package var status: Int
    /// The reason phrase (often empty for HTTP/2).
    package var statusText: String
    /// The protocol, such as `HTTP/1.1` or `h2`.
    package var httpVersion: String
    /// The cookies set.
    package var cookies: [HARCookie]
    /// The header fields, in order, duplicates kept.
    package var headers: [HARNameValue]
    /// The body.
    package var content: HARContent
    /// The `Location` of a redirect, or an empty string.
    package var redirectURL: String
    /// The head's size in bytes, `-1` when unknown.
    package var headersSize: Int
    /// The body's size on the wire, `-1` when unknown.
    package var bodySize: Int
    /// A comment, or `nil`.
    package var comment: String?
    /// Fields whose names start with `_` (Chromium's `_transferSize`, `_error` …).
    package var custom: [String: HARValue]

    /// Creates a response.
    package init(
        status: Int, statusText: String = "", httpVersion: String = "HTTP/1.1", cookies: [HARCookie] = [],
        headers: [HARNameValue] = [], content: HARContent, redirectURL: String = "", headersSize: Int = -1,
        bodySize: Int = -1, comment: String? = nil, custom: [String: HARValue] = [:]
    ) {
        self.status = status
        self.statusText = statusText
        self.httpVersion = httpVersion
        self.cookies = cookies
        self.headers = headers
        self.content = content
        self.redirectURL = redirectURL
        self.headersSize = headersSize
        self.bodySize = bodySize
        self.comment = comment
        self.custom = custom
    }

    /// Chromium's `_transferSize`: bytes received on the wire, head included, or `nil`.
    package var transferSize: Int? {
        custom["_transferSize"]?.numberValue.flatMap { Int(exactly: $0) }
    }
}

extension HARResponse: Codable {
    /// Reads a response: an integer `status` is required; missing lists read as empty, missing
    /// sizes as `-1`, a missing `content` as an empty body of unknown size.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        self.init(
            status: try container.required("status"),
            statusText: try container.optional("statusText") ?? "",
            httpVersion: try container.optional("httpVersion") ?? "",
            cookies: try container.optional("cookies") ?? [],
            headers: try container.optional("headers") ?? [],
            content: try container.optional("content") ?? HARContent(size: -1, mimeType: ""),
            redirectURL: try container.optional("redirectURL") ?? "",
            headersSize: try container.optional("headersSize") ?? -1,
            bodySize: try container.optional("bodySize") ?? -1,
            comment: try container.optional("comment"),
            custom: try container.custom()
        )
    }

    /// Writes the response, every list even when empty (HAR 1.2 requires them), custom members included.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encodeCustom(custom)
        try container.encode(status, forKey: "status")
        try container.encode(statusText, forKey: "statusText")
        try container.encode(httpVersion, forKey: "httpVersion")
        try container.encode(cookies, forKey: "cookies")
        try container.encode(headers, forKey: "headers")
        try container.encode(content, forKey: "content")
        try container.encode(redirectURL, forKey: "redirectURL")
        try container.encode(headersSize, forKey: "headersSize")
        try container.encode(bodySize, forKey: "bodySize")
        try container.encodeIfPresent(comment, forKey: "comment")
    }
}
