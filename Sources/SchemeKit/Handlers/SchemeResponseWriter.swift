public import Foundation
public import HTTPTypes

/// Where a handler writes its response: a head, body chunks, then a finish (or a failure).
///
/// The writer a handler receives from the registry is guarded: after the engine stops the task
/// every call throws `CancellationError` and nothing reaches the engine; protocol misuse throws
/// ``SchemeTaskError``. Each call returns once the write was handed to the engine (or dropped),
/// and ``write(_:)-(SchemeBody)`` also waits while the engine asks for back-pressure, so a handler
/// that loops over a large file keeps memory flat.
///
/// To observe or change a response on its way (a cache storing what the network returned, a
/// throttle), wrap a writer with a ``SchemeForwardingWriter``: it forwards every requirement by
/// default, so a wrapper cannot lose what the engine supplies (its body memory) by forgetting a
/// method. A writer that is not a forwarding writer must implement every requirement itself.
public protocol SchemeResponseWriter: Sendable {
    /// Writes the response head. Exactly once, before any body bytes.
    func writeHead(_ response: SchemeResponse) async throws
    /// Writes a chunk of the body. Empty chunks are ignored.
    func write(_ body: SchemeBody) async throws
    /// Completes the response.
    func finish() async throws
    /// Fails the task; allowed before or after the head.
    func fail(_ error: any Error) async throws
    /// Reads a body into memory the engine supplies, when it does (see ``SchemeBodyAllocator``).
    ///
    /// Handlers that read bytes into a buffer before writing them (files, sockets) call this
    /// instead of allocating, so the engine can take the bytes without copying them.
    ///
    /// - Parameters:
    ///   - count: The capacity to fill. Must be positive.
    ///   - fill: Writes into the buffer and returns how many bytes it wrote (`0...count`).
    /// - Returns: The written bytes, to pass to ``write(_:)-(SchemeBody)``.
    /// - Throws: What `fill` throws.
    func makeBody<Failure: Error>(
        count: Int, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) -> SchemeBody

    /// Whether bodies may be regions of open files (``SchemeBody/init(fileRegion:)``): `true` when
    /// the engine sends files itself (``SchemeTaskSink/acceptsFileRegions``). A handler that
    /// serves files writes a region instead of reading the bytes when this is `true`.
    /// Default: `false`.
    var acceptsFileRegions: Bool { get }
}

extension SchemeResponseWriter {
    /// Bytes only.
    public var acceptsFileRegions: Bool { false }

    /// Writes a chunk of the body from `Data`. Empty chunks are ignored.
    public func write(_ data: Data) async throws {
        try await write(SchemeBody(data))
    }

    /// Writes a whole response: the head, `body` (when not empty) and the finish.
    ///
    /// `Content-Length` is set to `body.count` when `response` does not state a length.
    public func respond(_ response: SchemeResponse, body: Data) async throws {
        var response = response
        if response.expectedContentLength == nil {
            response.expectedContentLength = Int64(body.count)
            response.headerFields[.contentLength] = String(body.count)
        }
        try await writeHead(response)
        if !body.isEmpty { try await write(body) }
        try await finish()
    }

    /// Writes a whole response with a status, a MIME type and a body.
    ///
    /// - Parameters:
    ///   - status: The status.
    ///   - mimeType: The MIME type. Default: `text/plain` with `charset=utf-8`.
    ///   - headerFields: Extra header fields. Default: none.
    ///   - body: The body. Default: empty.
    public func respond(
        _ status: HTTPResponse.Status,
        mimeType: String = "text/plain",
        headerFields: HTTPFields = [:],
        body: Data = Data()
    ) async throws {
        let encoding = mimeType.hasPrefix("text/") ? "utf-8" : nil
        try await respond(
            SchemeResponse(status: status, headerFields: headerFields, mimeType: mimeType, textEncodingName: encoding),
            body: body
        )
    }
}
