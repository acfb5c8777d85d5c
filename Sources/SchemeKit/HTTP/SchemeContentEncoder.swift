public import Foundation

/// A content coding an engine applies to whole bodies, such as gzip: what a
/// ``LocalFileHandler`` uses for its on-the-fly encodings (``LocalFileHandler/Configuration/encoders``).
///
/// SchemeKit's core has no compression library of its own; an engine that compresses (`schemeserve`
/// with zlib) provides one. An encoder must be deterministic enough for caching: the file handler
/// encodes a file once per file identity and keeps the result beside the file's body.
public protocol SchemeContentEncoder: Sendable {
    /// The content coding, lowercase, as in `Accept-Encoding` and `Content-Encoding` (`gzip`).
    var contentCoding: String { get }

    /// The whole of `body` in this coding.
    ///
    /// - Throws: When it cannot encode; the file handler then answers in the identity coding.
    func encode(_ body: Data) throws -> Data
}

/// Which bodies are worth compressing: shared by the file handler's on-the-fly encodings and
/// schemeserve's streaming gzip, so both decide alike.
package enum CompressibleContent {
    /// Bodies smaller than this are sent as they are: the coding's framing would eat the saving.
    package static let minimumSize = 256

    /// Media types worth compressing: `text/*` (but `text/event-stream`), JSON, XML, SVG,
    /// JavaScript, wasm, TTF/OTF and `+json`/`+xml` types. A byte-level check: it runs for every
    /// response.
    package static func isCompressible(_ contentType: String?) -> Bool {
        guard var contentType else { return false }
        return contentType.withUTF8 { bytes in
            var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            while end > 0, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
            let type = UnsafeBufferPointer(rebasing: bytes[..<end])
            func hasPrefix(_ prefix: StaticString) -> Bool {
                guard type.count >= prefix.utf8CodeUnitCount else { return false }
                for index in 0..<prefix.utf8CodeUnitCount where type[index] | 0x20 != prefix.utf8Start[index] | 0x20 {
                    return false
                }
                return true
            }
            func hasSuffix(_ suffix: StaticString) -> Bool {
                let count = suffix.utf8CodeUnitCount
                guard type.count >= count else { return false }
                for index in 0..<count
                where type[type.count - count + index] | 0x20 != suffix.utf8Start[index] | 0x20 {
                    return false
                }
                return true
            }
            // A stream of events is read as it arrives: a compressor holds it back until its
            // buffer fills (nginx leaves it alone too).
            if hasPrefix("text/event-stream") { return false }
            if hasPrefix("text/") { return true }
            if hasSuffix("+json") || hasSuffix("+xml") || hasSuffix("/json") || hasSuffix("/xml") { return true }
            return hasSuffix("/javascript") || hasSuffix("/wasm") || hasSuffix("font/ttf") || hasSuffix("font/otf")
        }
    }
}
