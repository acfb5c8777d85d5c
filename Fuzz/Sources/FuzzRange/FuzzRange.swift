import FuzzSupport

@testable import SchemeKit

/// `Range` parsing and evaluation against a representation size, then multipart framing.
///
/// Properties: parsing and evaluation never trap; every range of a 206 lies inside the
/// representation (`0 <= first <= last < size`); no more ranges than the limit; without overlap
/// allowed, the ranges are disjoint and total at most the size; `MultipartByteRanges.contentLength`
/// equals the byte count of the body it frames, computed here without overflow.
@main
struct FuzzRange {
    static func main() {
        Fuzzer.run { buffer in
            var input = FuzzInput(buffer)
            let sizeMode = input.byte()
            let rawSize = input.int64()
            // Small sizes most of the time, so that ranges meet the end of the file; sometimes any
            // non-negative 64-bit size, to reach overflow.
            let size: Int64 =
                switch sizeMode % 4 {
                case 0: rawSize & 0xFFFF
                case 1: Int64.max - (rawSize & 0xFFFF)
                case 2: rawSize & Int64.max
                default: rawSize & 0xFF
                }
            let limits = RangeRequest.Limits(maxRanges: Int(input.byte() % 40), allowsOverlappingRanges: input.bool())
            let contentType: String? = input.bool() ? "video/mp4" : nil
            let header = input.restString()
            check(header: header, size: size, limits: limits, contentType: contentType)
        }
    }

    static func check(header: String, size: Int64, limits: RangeRequest.Limits, contentType: String?) {
        guard let request = RangeRequest(header) else {
            require(RangeRequest.evaluate(header, size: size, limits: limits) == .whole, "unparsed header not ignored")
            return
        }
        require(!request.specs.isEmpty, "parsed request without specs")
        let decision = request.evaluate(size: size, limits: limits)
        require(decision == RangeRequest.evaluate(header, size: size, limits: limits), "evaluate not deterministic")
        switch decision {
        case .whole:
            break
        case .unsatisfiable:
            require(size > 0, "416 for an empty representation")
        case .partial(let ranges):
            require(!ranges.isEmpty, "206 without ranges")
            require(ranges.count <= limits.maxRanges, "more ranges than the limit")
            var total: Int64 = 0
            var overflow = false
            for range in ranges {
                require(
                    range.first >= 0 && range.first <= range.last && range.last < size,
                    "range \(range) outside a representation of \(size) bytes")
                require(range.count == range.last - range.first + 1, "count")
                (total, overflow) = total.addingReportingOverflow(range.count)
                if overflow { break }
            }
            if !limits.allowsOverlappingRanges {
                require(!overflow && total <= size, "disjoint ranges total more than the size")
                let sorted = ranges.sorted { $0.first < $1.first }
                for index in sorted.indices.dropFirst() {
                    require(sorted[index].first > sorted[index - 1].last, "overlapping ranges honoured")
                }
            }
            // One range is sent with Content-Range alone (LocalFileHandler); several as multipart.
            if ranges.count > 1 { checkMultipart(ranges: ranges, size: size, contentType: contentType) }
        }
    }

    /// The multipart body length, counted piece by piece with overflow checks, against
    /// `contentLength`. A body whose length does not fit in 64 bits must never be produced.
    static func checkMultipart(ranges: [ByteRange], size: Int64, contentType: String?) {
        let multipart = MultipartByteRanges(
            ranges: ranges, completeLength: size, contentType: contentType, boundary: "0123456789abcdef0123456789abcdef"
        )
        var expected = Int64(multipart.closingDelimiter.utf8.count)
        for (index, range) in ranges.enumerated() {
            let header = multipart.partHeader(at: index)
            require(header.contains("Content-Range: bytes \(range.first)-\(range.last)/\(size)\r\n"), "part header")
            var overflow = false
            (expected, overflow) = expected.addingReportingOverflow(Int64(header.utf8.count))
            require(!overflow, "multipart length overflows Int64 (\(ranges.count) ranges of \(size))")
            (expected, overflow) = expected.addingReportingOverflow(range.count)
            require(!overflow, "multipart length overflows Int64 (\(ranges.count) ranges of \(size))")
        }
        require(multipart.contentLength == expected, "contentLength \(multipart.contentLength) != \(expected)")
    }
}
