import SchemeKit
import Testing

extension HTTPTests {
    struct RangeRequestTests {
        typealias Decision = RangeRequest.Decision

        static func partial(_ pairs: (Int64, Int64)...) -> Decision {
            .partial(pairs.map { ByteRange(first: $0.0, last: $0.1) })
        }

        /// Header value, representation size, expected decision.
        static let cases: [(String?, Int64, Decision)] = [
            (nil, 1000, .whole),
            ("bytes=0-499", 1000, partial((0, 499))),
            ("bytes=500-999", 1000, partial((500, 999))),
            ("bytes=500-", 1000, partial((500, 999))),
            ("bytes=-500", 1000, partial((500, 999))),
            ("bytes=-5000", 1000, partial((0, 999))),
            ("bytes=0-0", 1000, partial((0, 0))),
            ("bytes=999-", 1000, partial((999, 999))),
            ("bytes=0-99999", 1000, partial((0, 999))),
            ("bytes=0-99999999999999999999999999", 1000, partial((0, 999))),
            ("BYTES=0-9", 1000, partial((0, 9))),
            ("  bytes=0-9  ", 1000, partial((0, 9))),
            ("bytes=0-9, 20-29", 1000, partial((0, 9), (20, 29))),
            ("bytes=0-9 ,\t20-29", 1000, partial((0, 9), (20, 29))),
            ("bytes=0-9,,20-29,", 1000, partial((0, 9), (20, 29))),
            ("bytes=20-29,0-9", 1000, partial((20, 29), (0, 9))),
            ("bytes=0-9,10-19", 1000, partial((0, 9), (10, 19))),
            ("bytes=0-9,2000-3000", 1000, partial((0, 9))),
            ("bytes=-0,0-0", 1000, partial((0, 0))),
            // Unsatisfiable → 416.
            ("bytes=1000-", 1000, .unsatisfiable),
            ("bytes=1000-2000", 1000, .unsatisfiable),
            ("bytes=-0", 1000, .unsatisfiable),
            ("bytes=5000-6000,7000-", 1000, .unsatisfiable),
            ("bytes=99999999999999999999-", 1000, .unsatisfiable),
            // Malformed → ignored → whole.
            ("bytes=", 1000, .whole),
            ("bytes=,", 1000, .whole),
            ("bytes=abc", 1000, .whole),
            ("bytes=5-1", 1000, .whole),
            ("bytes=-", 1000, .whole),
            ("bytes=0 - 9", 1000, .whole),
            ("bytes=+1-2", 1000, .whole),
            ("bytes=-1-2", 1000, .whole),
            ("bytes=1-2-3", 1000, .whole),
            ("bytes=0x10-20", 1000, .whole),
            ("bytes 0-9", 1000, .whole),
            ("items=0-9", 1000, .whole),
            ("bytes=0-9, bytes=20-29", 1000, .whole),
            ("bytes=0-9;20-29", 1000, .whole),
            ("bytes=١-٢", 1000, .whole),
            // Amplification: overlapping ranges or too many → whole.
            ("bytes=0-499,400-999", 1000, .whole),
            ("bytes=0-,0-", 1000, .whole),
            ("bytes=-500,0-", 1000, .whole),
            ("bytes=0-0,0-0", 1000, .whole),
            ((0..<17).map { "\($0 * 10)-\($0 * 10 + 1)" }.joined(separator: ",").prefixed("bytes="), 1000, .whole),
            // Empty representation: ignored.
            ("bytes=0-", 0, .whole),
            ("bytes=-10", 0, .whole),
            // 64-bit offsets.
            ("bytes=5000000000-5000000009", 6_000_000_000, partial((5_000_000_000, 5_000_000_009))),
            ("bytes=-10", 6_000_000_000, partial((5_999_999_990, 5_999_999_999))),
            ("bytes=4294967296-", 4_294_967_300, partial((4_294_967_296, 4_294_967_299))),
        ]

        @Test(arguments: cases)
        func decision(header: String?, size: Int64, expected: Decision) {
            #expect(RangeRequest.evaluate(header, size: size) == expected)
        }

        @Test func sixteenRangesAreHonouredSeventeenAreNot() {
            let sixteen = "bytes=" + (0..<16).map { "\($0 * 10)-\($0 * 10 + 1)" }.joined(separator: ",")
            guard case .partial(let ranges) = RangeRequest.evaluate(sixteen, size: 1000) else {
                Issue.record("16 ranges should be honoured")
                return
            }
            #expect(ranges.count == 16)
            let limits = RangeRequest.Limits(maxRanges: 2)
            #expect(RangeRequest.evaluate("bytes=0-1,5-6,8-9", size: 100, limits: limits) == .whole)
        }

        @Test func overlappingRangesCanBeAllowed() {
            let limits = RangeRequest.Limits(allowsOverlappingRanges: true)
            #expect(
                RangeRequest.evaluate("bytes=0-5,3-9", size: 100, limits: limits)
                    == .partial([ByteRange(first: 0, last: 5), ByteRange(first: 3, last: 9)]))
        }

        @Test func parsedSpecsKeepTheClientsForm() {
            #expect(
                RangeRequest("bytes=1-2, 3-, -4")?.specs == [
                    .bounded(first: 1, last: 2), .bounded(first: 3, last: nil), .suffix(length: 4),
                ])
            #expect(RangeRequest("bytes=2-1") == nil)
        }

        @Test func contentRangeValues() {
            let range = ByteRange(first: 5_000_000_000, last: 5_000_000_009)
            #expect(range.count == 10)
            #expect(range.contentRange(completeLength: 6_000_000_000) == "bytes 5000000000-5000000009/6000000000")
            #expect(ByteRange.unsatisfiedContentRange(completeLength: 42) == "bytes */42")
        }
    }
}

extension String {
    fileprivate func prefixed(_ prefix: String) -> String { prefix + self }
}
