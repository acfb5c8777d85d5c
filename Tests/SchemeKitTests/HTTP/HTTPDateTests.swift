import Foundation
import SchemeKit
import Testing

extension HTTPTests {
    struct HTTPDateTests {
        static let reference: Int64 = 784_111_777  // Sun, 06 Nov 1994 08:49:37 GMT

        @Test(
            arguments: [
                (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
                (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
                (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
                (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
                (4_102_444_800, "Fri, 01 Jan 2100 00:00:00 GMT"),
                (1_709_251_199, "Thu, 29 Feb 2024 23:59:59 GMT"),
            ] as [(Int64, String)])
        func formatsIMFFixdate(seconds: Int64, expected: String) {
            #expect(HTTPDate.format(secondsSince1970: seconds) == expected)
            #expect(HTTPDate.parseSecondsSince1970(expected) == seconds)
        }

        @Test func agreesWithFoundationOverManyDates() {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            var seconds: Int64 = -2_000_000_000
            while seconds < 4_000_000_000 {
                let date = Date(timeIntervalSince1970: TimeInterval(seconds))
                #expect(HTTPDate.format(date) == formatter.string(from: date))
                seconds += 7_777_777
            }
        }

        @Test(arguments: [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
            "Sun Nov 06 08:49:37 1994",
            "  Sun, 06 Nov 1994 08:49:37 GMT ",
        ])
        func parsesAllThreeFormats(value: String) {
            #expect(HTTPDate.parseSecondsSince1970(value) == Self.reference)
        }

        @Test(arguments: [
            "", "yesterday", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37 +0000",
            "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 6 Nov 1994 08:49:37 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 UTC",
            "Sun Nov  6 08:49:37 94", "784111777",
        ])
        func rejectsInvalidDates(value: String) {
            #expect(HTTPDate.parseSecondsSince1970(value) == nil)
        }

        @Test func twoDigitYearsNeverLandMoreThanFiftyYearsAhead() {
            let now = Date(timeIntervalSince1970: 1_750_000_000)  // 2025
            #expect(
                HTTPDate.parseSecondsSince1970("Tuesday, 01-Jan-80 00:00:00 GMT", now: now) == 315_532_800)
            let in2030 = HTTPDate.parseSecondsSince1970("Tuesday, 01-Jan-30 00:00:00 GMT", now: now)
            #expect(in2030 == 1_893_456_000)
        }

        @Test func subSecondPartsAreTruncated() {
            #expect(HTTPDate.format(Date(timeIntervalSince1970: 0.999)) == "Thu, 01 Jan 1970 00:00:00 GMT")
            #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:01 GMT") == Date(timeIntervalSince1970: 1))
        }
    }
}
