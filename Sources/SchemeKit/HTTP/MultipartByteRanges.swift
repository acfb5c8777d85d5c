/// The framing of a `multipart/byteranges` body: several ranges of one representation in one
/// 206 response ([RFC 9110 §14.6](https://www.rfc-editor.org/rfc/rfc9110#section-14.6)).
///
/// The body is, for each range, ``partHeader(at:)`` followed by that range's bytes, then
/// ``closingDelimiter``. Because every piece's length is known up front, ``contentLength`` is
/// exact before a byte is read, so the response can carry `Content-Length`.
///
/// ```swift
/// let multipart = MultipartByteRanges(ranges: ranges, completeLength: size, contentType: "video/mp4")
/// head.headerFields[.contentType] = multipart.contentTypeValue
/// head.headerFields[.contentLength] = String(multipart.contentLength)
/// for (index, range) in ranges.enumerated() {
///     write(multipart.partHeader(at: index)); write(bytes(range))
/// }
/// write(multipart.closingDelimiter)
/// ```
package struct MultipartByteRanges: Sendable, Hashable {
    /// The ranges, in the order they are sent.
    package let ranges: [ByteRange]
    /// The representation's total length (the number after `/` in each `Content-Range`).
    package let completeLength: Int64
    /// The representation's `Content-Type`, repeated in each part; `nil` omits it.
    package let contentType: String?
    /// The boundary; 32 random hexadecimal digits by default.
    package let boundary: String

    /// Creates the framing.
    ///
    /// - Parameters:
    ///   - ranges: The ranges to send. At least one.
    ///   - completeLength: The representation's length.
    ///   - contentType: The representation's content type. Default: none.
    ///   - boundary: The boundary. Default: ``randomBoundary()``. It must not occur in the data;
    ///     128 random bits make that vanishingly unlikely.
    package init(
        ranges: [ByteRange], completeLength: Int64, contentType: String? = nil, boundary: String = randomBoundary()
    ) {
        self.ranges = ranges
        self.completeLength = completeLength
        self.contentType = contentType
        self.boundary = boundary
    }

    /// 32 random hexadecimal digits.
    package static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = String(generator.next() as UInt64, radix: 16)
        let low = String(generator.next() as UInt64, radix: 16)
        return String(repeating: "0", count: 16 - high.count) + high + String(repeating: "0", count: 16 - low.count)
            + low
    }

    /// The response's `Content-Type`: `multipart/byteranges; boundary=<boundary>`.
    package var contentTypeValue: String { "multipart/byteranges; boundary=\(boundary)" }

    /// The delimiter and headers that precede part `index`'s bytes.
    ///
    /// The first part starts with `--boundary`; later ones with `CRLF--boundary` (the CRLF ends the
    /// previous part's data).
    package func partHeader(at index: Int) -> String {
        var header = index == 0 ? "--" : "\r\n--"
        header += boundary
        header += "\r\n"
        if let contentType { header += "Content-Type: \(contentType)\r\n" }
        header += "Content-Range: \(ranges[index].contentRange(completeLength: completeLength))\r\n\r\n"
        return header
    }

    /// The final delimiter: `CRLF--boundary--CRLF`.
    package var closingDelimiter: String { "\r\n--\(boundary)--\r\n" }

    /// The exact length of the whole multipart body.
    package var contentLength: Int64 {
        var total = Int64(closingDelimiter.utf8.count)
        for index in ranges.indices {
            total += Int64(partHeader(at: index).utf8.count) + ranges[index].count
        }
        return total
    }
}
