import Foundation
import SchemeKit
import Testing

/// Bugs the fuzz targets found (Fuzz/crashes/), each kept as a test of the normal suite.
struct FuzzFoundHTTPTests {
    /// `Fuzz/crashes/FuzzRange-crash-f5b87775…`: overlapping ranges of a file of almost 2^63 bytes
    /// total more than `Int64.max`; `MultipartByteRanges.contentLength` trapped on the overflow.
    @Test func overlappingRangesOfAHugeFileNeverOverflowTheMultipartLength() {
        let size = Int64.max - 10_000
        let header = "bytes=0-0,1-1,2-2,33-,4-4,5-5,6-,-1111,12-24,13-13,14-14,15-15,16-16,17-17,18-18,19-19"
        let decision = RangeRequest.evaluate(header, size: size, limits: .init(allowsOverlappingRanges: true))
        #expect(decision == .whole)
        // The same ranges of an ordinary file are still honoured, overlap and all.
        guard
            case .partial(let ranges) = RangeRequest.evaluate(
                header, size: 10_000, limits: .init(allowsOverlappingRanges: true))
        else {
            Issue.record("ranges of a 10,000-byte file not honoured")
            return
        }
        #expect(ranges.count == 16)
        let multipart = MultipartByteRanges(ranges: ranges, completeLength: 10_000, contentType: "video/mp4")
        #expect(multipart.contentLength > ranges.reduce(0) { $0 + $1.count })
    }

    /// Two disjoint ranges that each fit but together with the framing would not.
    @Test func disjointRangesOfAHugeFileAreAnsweredWhole() {
        let size = Int64.max - 1
        #expect(RangeRequest.evaluate("bytes=0-1,3-", size: size) == .whole)
        #expect(
            RangeRequest.evaluate("bytes=0-1,3-9", size: size)
                == .partial([.init(first: 0, last: 1), .init(first: 3, last: 9)]))
        #expect(RangeRequest.evaluate("bytes=3-", size: size) == .partial([.init(first: 3, last: size - 1)]))
    }

    /// `Fuzz/crashes/FuzzConditional-crash-3cdb6c1e…`: the year 0000 parsed, but formatting
    /// clamps to year 1, so format(parse(x)) named another day. Year 0000 is not a valid date.
    @Test(arguments: ["Sat, 01 Jan 0000 00:00:00 GMT", "Sat Jan  1 00:00:00 0000"])
    func yearZeroIsNotADate(_ value: String) {
        #expect(HTTPDate.parseSecondsSince1970(value) == nil)
    }

    @Test func theFirstAndLastFormattableDatesRoundTrip() {
        for text in ["Mon, 01 Jan 0001 00:00:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT"] {
            let seconds = HTTPDate.parseSecondsSince1970(text)
            #expect(seconds.map(HTTPDate.format(secondsSince1970:)) == text)
        }
    }
}
