import Foundation
import HTTPTypes
import SchemeKit

/// Serves `name.br` or `name.gz` in place of `name` when the client accepts that encoding and
/// the sibling exists, with `Content-Encoding`, `Vary: Accept-Encoding` and the original name's
/// `Content-Type`.
///
/// It does not touch the file system: it rewrites the request to the sibling's path and asks the
/// file handler behind it, so the sibling gets exactly the same traversal and dotfile rules.
/// Requests with a `Range` are left alone (a range of the compressed bytes is not what the client
/// asked for). When the sibling is missing (the file handler passes or answers anything but 200
/// or 304) the response is discarded and the request passes to the next handler.
struct PrecompressedSiblingHandler: SchemeHandler {
    let files: any SchemeHandler
    let detector = MIMEDetector()

    var name: String { "precompressed" }

    func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
        guard request.headerFields[.range] == nil,
            let accept = request.headerFields[.acceptEncoding],
            !request.path.hasSuffix("/")
        else { return .passed }
        let accepted = AcceptEncoding(accept)
        for (encoding, suffix) in [("br", ".br"), ("gzip", ".gz")] where accepted.allows(encoding) {
            guard let sibling = sibling(of: request, suffix: suffix) else { continue }
            let (mimeType, charset) = detector.contentType(forPath: request.path)
            let rewriting = SiblingWriter(
                inner: writer,
                encoding: encoding,
                contentType: charset.map { "\(mimeType); charset=\($0)" } ?? mimeType
            )
            let outcome = try await files.handle(sibling, writer: rewriting)
            if outcome == .handled, await rewriting.answered { return .handled }
        }
        return .passed
    }

    private func sibling(of request: SchemeRequest, suffix: String) -> SchemeRequest? {
        try? SchemeRequest(
            scheme: request.scheme, authority: request.head.authority ?? request.host,
            path: request.path + suffix + (request.query.map { "?\($0)" } ?? ""), method: request.method,
            headerFields: request.headerFields)
    }
}

/// Forwards a 200/304 from the file handler with the encoding headers; swallows anything else.
private actor SiblingWriter: SchemeResponseWriter {
    let inner: any SchemeResponseWriter
    let encoding: String
    let contentType: String
    private(set) var answered = false
    private var swallowing = false

    init(inner: any SchemeResponseWriter, encoding: String, contentType: String) {
        self.inner = inner
        self.encoding = encoding
        self.contentType = contentType
    }

    func writeHead(_ response: SchemeResponse) async throws {
        guard response.status == .ok || response.status == .notModified else {
            swallowing = true
            return
        }
        var head = response
        head.headerFields[.contentEncoding] = encoding
        head.headerFields[.vary] = "Accept-Encoding"
        if response.status == .ok { head.headerFields[.contentType] = contentType }
        if let etag = head.headerFields[.eTag], etag.hasSuffix("\"") {
            head.headerFields[.eTag] = String(etag.dropLast()) + "-\(encoding)\""
        }
        answered = true
        try await inner.writeHead(head)
    }

    func write(_ data: Data) async throws {
        guard !swallowing else { return }
        try await inner.write(data)
    }

    nonisolated func makeBody<Failure: Error>(
        count: Int, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) -> Data {
        try inner.makeBody(count: count, fill: fill)
    }

    func finish() async throws {
        guard !swallowing else { return }
        try await inner.finish()
    }

    func fail(_ error: any Error) async throws {
        guard !swallowing else { return }
        try await inner.fail(error)
    }
}
