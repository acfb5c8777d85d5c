public import Foundation
public import SchemeKit

/// A handler that answers every request with the same fixed bytes.
///
/// It writes the head (with `Content-Length` set to the body's size), the body in one write or
/// in chunks of `chunkSize` bytes, then the finish. HEAD requests get the head and no body.
///
/// ```swift
/// let registry = SchemeRegistry()
/// try registry.register(StaticHandler("hello", mimeType: "text/plain"), for: "app")
/// let result = try await ScriptedEngine(registry: registry).run("app://localhost/")
/// #expect(result.bodyString == "hello")
/// ```
///
/// Gate it with a ``RequestMatcher`` through ``StubHandler`` (or `.matching(_:)`) to answer only
/// some requests.
public struct StaticHandler: SchemeHandler {
    /// The response head written for every request.
    package var response: SchemeResponse
    /// The body written for every request except HEAD.
    package var body: Data
    /// The size of each body write; `nil` writes the body at once.
    package var chunkSize: Int?
    /// The name used in traces.
    public var name: String
    /// The methods this handler intercepts.
    public var supportedMethods: Set<HTTPRequest.Method>

    /// Creates a handler answering with `body`.
    ///
    /// - Parameters:
    ///   - body: The body. Default: empty.
    ///   - status: The status. Default: 200 OK.
    ///   - mimeType: The MIME type. Default: `application/octet-stream`.
    ///   - textEncodingName: The charset added to `Content-Type`. Default: none.
    ///   - headerFields: Extra header fields. Default: none.
    ///   - chunkSize: The size of each body write (at least 1); `nil` writes it at once. Default: `nil`.
    ///   - name: The name used in traces. Default: `"static"`.
    ///   - methods: The methods it intercepts. Default: GET and HEAD.
    public init(
        _ body: Data = Data(),
        status: HTTPResponse.Status = .ok,
        mimeType: String = "application/octet-stream",
        textEncodingName: String? = nil,
        headerFields: HTTPFields = [:],
        chunkSize: Int? = nil,
        name: String = "static",
        methods: Set<HTTPRequest.Method> = [.get, .head]
    ) {
        self.response = SchemeResponse(
            status: status,
            headerFields: headerFields,
            mimeType: mimeType,
            textEncodingName: textEncodingName,
            expectedContentLength: Int64(body.count)
        )
        self.body = body
        self.chunkSize = chunkSize.map { max(1, $0) }
        self.name = name
        self.supportedMethods = methods
    }

    /// Creates a handler answering with `text` in UTF-8.
    ///
    /// - Parameters:
    ///   - text: The body.
    ///   - status: The status. Default: 200 OK.
    ///   - mimeType: The MIME type. Default: `text/plain`, with `charset=utf-8`.
    ///   - headerFields: Extra header fields. Default: none.
    ///   - name: The name used in traces. Default: `"static"`.
    public init(
        _ text: String,
        status: HTTPResponse.Status = .ok,
        mimeType: String = "text/plain",
        headerFields: HTTPFields = [:],
        name: String = "static"
    ) {
        self.init(
            Data(text.utf8),
            status: status,
            mimeType: mimeType,
            textEncodingName: "utf-8",
            headerFields: headerFields,
            name: name
        )
    }

    /// Writes the head, the body (not for HEAD) and the finish.
    public func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
    {
        try await writer.writeHead(response)
        if request.method != .head, !body.isEmpty {
            if let chunkSize, chunkSize < body.count {
                var offset = body.startIndex
                while offset < body.endIndex {
                    let end = body.index(offset, offsetBy: chunkSize, limitedBy: body.endIndex) ?? body.endIndex
                    try await writer.write(body[offset..<end])
                    offset = end
                }
            } else {
                try await writer.write(body)
            }
        }
        try await writer.finish()
        return .handled
    }
}
