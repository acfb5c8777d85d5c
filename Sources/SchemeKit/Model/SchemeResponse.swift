package import Foundation
public import HTTPTypes

/// The head of a response: status, header fields, and the metadata engines such as WKWebView
/// want separately (MIME type, text encoding, expected length).
///
/// The header fields are authoritative. The initialiser fills `Content-Type` from
/// `mimeType`/`textEncodingName` and `Content-Length` from `expectedContentLength` when the
/// fields do not already carry them, so engines that only read headers see the same thing.
///
/// ```swift
/// let head = SchemeResponse(status: .ok, mimeType: "text/html", textEncodingName: "utf-8",
///                           expectedContentLength: 1024)
/// head.headerFields[.contentType]   // "text/html; charset=utf-8"
/// ```
public struct SchemeResponse: Sendable, Equatable {
    /// The HTTP head: status and header fields.
    public var head: HTTPResponse
    /// The MIME type without parameters (`text/html`), or `nil` when unknown.
    public var mimeType: String?
    /// The text encoding name (`utf-8`), or `nil` for binary types.
    public var textEncodingName: String?
    /// The body's length in bytes when known in advance; `nil` for streamed bodies of unknown length.
    public var expectedContentLength: Int64?
    /// Why the handler refused the request, when this head is a refusal it can explain: a typed
    /// error for access logs and request records (`schemeserve` logs its description after the
    /// handler's name). Default: `nil`.
    ///
    /// Set by ``LocalFileHandler`` on a 403 for a symbolic link its policy does not follow
    /// (``LocalFileHandlerError/symlinkRefused(policy:)``). It is not sent to the engine (the body
    /// says it in words), and it never names a filesystem path. Two heads compare equal when their
    /// reasons describe themselves alike.
    public var refusalReason: (any Error)?

    /// Creates a response head.
    ///
    /// - Parameters:
    ///   - status: The status. Default: 200 OK.
    ///   - headerFields: Header fields. Default: none.
    ///   - mimeType: The MIME type; sets `Content-Type` when the fields have none. Default: `nil`.
    ///   - textEncodingName: The charset added to `Content-Type`. Default: `nil`.
    ///   - expectedContentLength: Sets `Content-Length` when the fields have none. Default: `nil`.
    public init(
        status: HTTPResponse.Status = .ok,
        headerFields: HTTPFields = [:],
        mimeType: String? = nil,
        textEncodingName: String? = nil,
        expectedContentLength: Int64? = nil
    ) {
        var fields = headerFields
        if let mimeType, fields[.contentType] == nil {
            fields[.contentType] = textEncodingName.map { "\(mimeType); charset=\($0)" } ?? mimeType
        }
        if let expectedContentLength, fields[.contentLength] == nil {
            fields[.contentLength] = String(expectedContentLength)
        }
        self.head = HTTPResponse(status: status, headerFields: fields)
        self.mimeType = mimeType ?? fields[.contentType].map(Self.essence(ofContentType:))
        self.textEncodingName = textEncodingName ?? fields[.contentType].flatMap(Self.charset(ofContentType:))
        self.expectedContentLength = expectedContentLength ?? fields[.contentLength].flatMap { Int64($0) }
    }

    /// The status.
    public var status: HTTPResponse.Status { head.status }

    /// Whether two heads are the same: status, fields, metadata, and reasons that describe
    /// themselves alike (``refusalReason``).
    public static func == (lhs: SchemeResponse, rhs: SchemeResponse) -> Bool {
        lhs.head == rhs.head && lhs.mimeType == rhs.mimeType && lhs.textEncodingName == rhs.textEncodingName
            && lhs.expectedContentLength == rhs.expectedContentLength
            && lhs.refusalReason.map { String(describing: $0) } == rhs.refusalReason.map { String(describing: $0) }
    }

    /// The header fields.
    public var headerFields: HTTPFields {
        get { head.headerFields }
        set { head.headerFields = newValue }
    }

    /// A short plain-text response such as the registry's 404: the body is `message`, UTF-8.
    ///
    /// - Returns: The head and the body to write after it.
    package static func plainText(_ status: HTTPResponse.Status, _ message: String) -> (SchemeResponse, Data) {
        let body = Data(message.utf8)
        return (
            SchemeResponse(
                status: status,
                mimeType: "text/plain",
                textEncodingName: "utf-8",
                expectedContentLength: Int64(body.count)
            ), body
        )
    }

    static func essence(ofContentType value: String) -> String {
        let end = value.firstIndex(of: ";") ?? value.endIndex
        return value[..<end].trimmingCharacters(in: .whitespaces).lowercased()
    }

    static func charset(ofContentType value: String) -> String? {
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else {
                continue
            }
            return pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }
}
