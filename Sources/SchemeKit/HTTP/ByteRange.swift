/// A satisfiable, resolved byte range of a representation: `first...last`, both inclusive.
///
/// Offsets are `Int64`, so representations over 4 GiB (and over 2 GiB, where 32-bit handlers
/// overflow) are addressed exactly. A `ByteRange` is produced by ``RangeRequest/evaluate(size:limits:)``
/// against a known size; it always satisfies `0 <= first <= last < size`.
///
/// ```swift
/// let range = ByteRange(first: 0, last: 499)
/// range.count                                  // 500
/// range.contentRange(completeLength: 10_000)   // "bytes 0-499/10000"
/// ```
package struct ByteRange: Sendable, Hashable, CustomStringConvertible {
    /// The offset of the first byte.
    package let first: Int64
    /// The offset of the last byte (inclusive).
    package let last: Int64

    /// Creates a range of the bytes `first...last`.
    ///
    /// - Precondition: `0 <= first <= last`.
    package init(first: Int64, last: Int64) {
        precondition(first >= 0 && first <= last, "invalid byte range \(first)-\(last)")
        self.first = first
        self.last = last
    }

    /// The number of bytes in the range.
    package var count: Int64 { last - first + 1 }

    /// The `Content-Range` field value for this range of a representation of `completeLength` bytes,
    /// such as `bytes 0-499/10000` ([RFC 9110 §14.4](https://www.rfc-editor.org/rfc/rfc9110#section-14.4)).
    package func contentRange(completeLength: Int64) -> String {
        "bytes \(first)-\(last)/\(completeLength)"
    }

    /// The `Content-Range` value of a 416 answer: `bytes */<completeLength>`.
    package static func unsatisfiedContentRange(completeLength: Int64) -> String {
        "bytes */\(completeLength)"
    }

    /// `first-last`.
    package var description: String { "\(first)-\(last)" }
}
