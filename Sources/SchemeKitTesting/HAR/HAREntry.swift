/// One exchange of a HAR file: a request, its response, and when and how long.
package struct HAREntry: Sendable, Hashable {
    /// The page this request belongs to (an id in ``HARLog/pages``), or `nil`.
    package var pageref: String?
    /// When the request started, ISO 8601 as recorded (`2024-05-01T12:00:00.000Z`).
    package var startedDateTime: String
    /// The total time in milliseconds.
    package var time: Double
    /// The request.
    package var request: HARRequest
    /// The response.
    package var response: HARResponse
    /// The `cache` object as recorded, or `nil`.
    package var cache: HARValue?
    /// The phases' times.
    package var timings: HARTimings
    /// The server's IP address, or `nil`.
    package var serverIPAddress: String?
    /// The connection's id, or `nil`.
    package var connection: String?
    /// A comment, or `nil`.
    package var comment: String?
    /// Fields whose names start with `_` (Chromium's `_resourceType`, `_initiator`, `_priority` …).
    package var custom: [String: HARValue]

    /// Creates an entry.
    package init(
        pageref: String? = nil, startedDateTime: String, time: Double, request: HARRequest, response: HARResponse,
        cache: HARValue? = nil, timings: HARTimings = HARTimings(), serverIPAddress: String? = nil,
        connection: String? = nil, comment: String? = nil, custom: [String: HARValue] = [:]
    ) {
        self.pageref = pageref
        self.startedDateTime = startedDateTime
        self.time = time
        self.request = request
        self.response = response
        self.cache = cache
        self.timings = timings
        self.serverIPAddress = serverIPAddress
        self.connection = connection
        self.comment = comment
        self.custom = custom
    }

    /// Chromium's `_resourceType` (`document`, `script`, `fetch`, `image` …), or `nil`.
    package var resourceType: String? { custom["_resourceType"]?.stringValue }

    /// Chromium's `_initiator` (what caused the request: `parser`, `script` with a stack …), or `nil`.
    package var initiator: HARValue? { custom["_initiator"] }
}

extension HAREntry: Codable {
    /// Reads an entry: `request` and `response` are required; missing `timings` read as zero,
    /// `cache` is kept as written (`null` included).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        self.init(
            pageref: try container.optional("pageref"),
            startedDateTime: try container.optional("startedDateTime") ?? "",
            time: try container.optional("time") ?? 0,
            request: try container.required("request"),
            response: try container.required("response"),
            cache: try container.value("cache"),
            timings: try container.optional("timings") ?? HARTimings(),
            serverIPAddress: try container.optional("serverIPAddress"),
            connection: try container.optional("connection"),
            comment: try container.optional("comment"),
            custom: try container.custom()
        )
    }

    /// Writes the entry, custom members included.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encodeCustom(custom)
        try container.encodeIfPresent(pageref, forKey: "pageref")
        try container.encode(startedDateTime, forKey: "startedDateTime")
        try container.encode(time, forKey: "time")
        try container.encode(request, forKey: "request")
        try container.encode(response, forKey: "response")
        try container.encodeIfPresent(cache, forKey: "cache")
        try container.encode(timings, forKey: "timings")
        try container.encodeIfPresent(serverIPAddress, forKey: "serverIPAddress")
        try container.encodeIfPresent(connection, forKey: "connection")
        try container.encodeIfPresent(comment, forKey: "comment")
    }

    /// The request URL of the entry `decoder` reads, when it has one, whatever else is wrong with it.
    static func requestURL(in decoder: any Decoder) -> String? {
        try? decoder.container(keyedBy: HARCodingKey.self).nested("request")?.optional("url", as: String.self)
    }
}
