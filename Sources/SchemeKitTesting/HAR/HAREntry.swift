/// One exchange of a HAR file: a request, its response, and when and how long.
public struct HAREntry: Sendable, Hashable {
    /// The page this request belongs to (an id in ``HARLog/pages``), or `nil`.
    public var pageref: String?
    /// When the request started, ISO 8601 as recorded (`2024-05-01T12:00:00.000Z`).
    public var startedDateTime: String
    /// The total time in milliseconds.
    public var time: Double
    /// The request.
    public var request: HARRequest
    /// The response.
    public var response: HARResponse
    /// The `cache` object as recorded, or `nil`.
    public var cache: HARValue?
    /// The phases' times.
    public var timings: HARTimings
    /// The server's IP address, or `nil`.
    public var serverIPAddress: String?
    /// The connection's id, or `nil`.
    public var connection: String?
    /// A comment, or `nil`.
    public var comment: String?
    /// Fields whose names start with `_` (Chromium's `_resourceType`, `_initiator`, `_priority` …).
    public var custom: [String: HARValue]

    /// Creates an entry.
    public init(
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
    public var resourceType: String? { custom["_resourceType"]?.stringValue }

    /// Chromium's `_initiator` (what caused the request: `parser`, `script` with a stack …), or `nil`.
    public var initiator: HARValue? { custom["_initiator"] }
}
