/// A parsed `Range` request header and the decision it leads to for a representation of known size
/// ([RFC 9110 §14](https://www.rfc-editor.org/rfc/rfc9110#section-14)).
///
/// Parsing is strict about the grammar and lenient about list whitespace: `bytes=0-99, 200-`
/// parses, `bytes=0 - 99` does not. A header that does not parse (wrong unit, a `last-pos` smaller
/// than its `first-pos`, a letter in a number, no range at all) is *ignored*, as RFC 9110 §14.2
/// allows: the caller sends the whole representation with 200.
///
/// ```swift
/// switch RangeRequest.evaluate(request.headerFields[.range], size: fileSize) {
/// case .whole: // 200 with the whole body
/// case .partial(let ranges): // 206, one range or multipart/byteranges
/// case .unsatisfiable: // 416 with Content-Range: bytes */size
/// }
/// ```
///
/// ## Range amplification
/// Many small or overlapping ranges turn a small request into a large amount of work and output.
/// Like nginx and Go's `net/http`, ``evaluate(size:limits:)`` then ignores the header and asks for
/// the whole representation: more than ``Limits/maxRanges`` ranges (default 16), or any two
/// satisfiable ranges that overlap (so the parts together never exceed the representation). Several
/// parts that together exceed 2^62 bytes are answered with the whole representation too, so a
/// multipart body's length always fits in 64 bits.
/// Adjacent ranges (`0-9,10-19`) are allowed and not coalesced: each becomes its own part.
package struct RangeRequest: Sendable, Hashable {
    /// One `range-spec` as the client wrote it, before it meets a size.
    package enum Spec: Sendable, Hashable {
        /// `first-last` or, with `last == nil`, the open range `first-`.
        case bounded(first: Int64, last: Int64?)
        /// `-length`: the last `length` bytes.
        case suffix(length: Int64)
    }

    /// What to send for a representation of a given size.
    package enum Decision: Sendable, Hashable {
        /// Ignore the header: send the whole representation with 200.
        case whole
        /// Send these ranges with 206, in the order requested: one range with `Content-Range`,
        /// several as `multipart/byteranges`. Never empty.
        case partial([ByteRange])
        /// No range is satisfiable: send 416 with `Content-Range: bytes */size`.
        case unsatisfiable
    }

    /// Limits that protect a server from range amplification.
    package typealias Limits = RangeLimits

    /// The range specs in the order they were written. Never empty.
    package let specs: [Spec]

    /// Parses a `Range` field value such as `bytes=0-499, -500`.
    ///
    /// - Returns: `nil` when the value is malformed or uses a unit other than `bytes`
    ///   (case-insensitive); the caller then ignores the header.
    package init?(_ headerValue: String) {
        var specs: [Spec] = []
        var value = headerValue
        let ok = value.withUTF8 { Self.parse($0, into: &specs) }
        guard ok, !specs.isEmpty else { return nil }
        self.specs = specs
    }

    /// Creates a request from specs.
    ///
    /// - Precondition: `specs` is not empty.
    package init(specs: [Spec]) {
        precondition(!specs.isEmpty, "a range request has at least one range")
        self.specs = specs
    }

    /// Decides what to send for a representation of `size` bytes.
    ///
    /// An empty representation (`size == 0`) has no satisfiable byte range; the header is then
    /// ignored (``Decision/whole``) rather than answered with 416, which RFC 9110 allows and which
    /// keeps media elements that always send `bytes=0-` working on empty files.
    package func evaluate(size: Int64, limits: Limits = Limits()) -> Decision {
        guard size > 0, specs.count <= limits.maxRanges else { return .whole }
        var ranges: [ByteRange] = []
        ranges.reserveCapacity(specs.count)
        for spec in specs {
            switch spec {
            case .bounded(let first, let last):
                guard first < size else { continue }
                ranges.append(ByteRange(first: first, last: min(last ?? (size - 1), size - 1)))
            case .suffix(let length):
                guard length > 0 else { continue }
                ranges.append(ByteRange(first: max(0, size - length), last: size - 1))
            }
        }
        guard !ranges.isEmpty else { return .unsatisfiable }
        if ranges.count > 1, !limits.allowsOverlappingRanges {
            let sorted = ranges.sorted { $0.first < $1.first }
            for index in 1..<sorted.count where sorted[index].first <= sorted[index - 1].last {
                return .whole
            }
        }
        if ranges.count > 1 {
            // Parts of a huge (sparse) file, or overlapping parts, can total so much that the
            // multipart body's length would not fit in 64 bits: answer with the whole instead.
            var total: Int64 = 0
            for range in ranges {
                let (sum, overflow) = total.addingReportingOverflow(range.count)
                guard !overflow, sum <= Self.maxMultipartPayload else { return .whole }
                total = sum
            }
        }
        return .partial(ranges)
    }

    /// The most bytes the parts of one multipart answer may total: 2^62, leaving room in
    /// 64 bits for the framing ``MultipartByteRanges/contentLength`` adds.
    static let maxMultipartPayload: Int64 = 1 << 62

    /// Parses `headerValue` (when present) and decides for a representation of `size` bytes.
    ///
    /// - Returns: ``Decision/whole`` when there is no header or it is malformed.
    package static func evaluate(_ headerValue: String?, size: Int64, limits: Limits = Limits()) -> Decision {
        guard let headerValue, let request = RangeRequest(headerValue) else { return .whole }
        return request.evaluate(size: size, limits: limits)
    }

    // MARK: Parsing

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, into specs: inout [Spec]) -> Bool {
        var start = 0
        var end = bytes.count
        while start < end, isWhitespace(bytes[start]) { start += 1 }
        while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
        // "bytes=" (the unit is case-insensitive).
        let unit: [UInt8] = Array("bytes=".utf8)
        guard end - start > unit.count else { return false }
        for (offset, expected) in unit.enumerated() {
            let byte = bytes[start + offset]
            let lowered = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
            guard lowered == expected else { return false }
        }
        var index = start + unit.count
        while index <= end {
            var elementEnd = index
            while elementEnd < end, bytes[elementEnd] != UInt8(ascii: ",") { elementEnd += 1 }
            var lower = index
            var upper = elementEnd
            while lower < upper, isWhitespace(bytes[lower]) { lower += 1 }
            while upper > lower, isWhitespace(bytes[upper - 1]) { upper -= 1 }
            if lower < upper {  // Empty list elements are allowed and ignored (RFC 9110 §5.6.1.2).
                guard let spec = parseSpec(bytes, lower, upper) else { return false }
                specs.append(spec)
            }
            index = elementEnd + 1
        }
        return true
    }

    private static func parseSpec(_ bytes: UnsafeBufferPointer<UInt8>, _ lower: Int, _ upper: Int) -> Spec? {
        var dash = lower
        while dash < upper, bytes[dash] != UInt8(ascii: "-") { dash += 1 }
        guard dash < upper else { return nil }
        let first = parseNumber(bytes, lower, dash)
        let last = parseNumber(bytes, dash + 1, upper)
        switch (first, last) {
        case (.some(let first), .some(let last)):
            return last >= first ? .bounded(first: first, last: last) : nil
        case (.some(let first), .none) where dash + 1 == upper:
            return .bounded(first: first, last: nil)
        case (.none, .some(let length)) where dash == lower:
            return .suffix(length: length)
        default:
            return nil
        }
    }

    /// Parses ASCII digits, saturating at `Int64.max`; `nil` for an empty or non-digit run.
    private static func parseNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ lower: Int, _ upper: Int) -> Int64? {
        guard lower < upper else { return nil }
        var value: Int64 = 0
        for index in lower..<upper {
            let byte = bytes[index]
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - 0x30))
            value = overflow1 || overflow2 ? Int64.max : sum
        }
        return value
    }
}
