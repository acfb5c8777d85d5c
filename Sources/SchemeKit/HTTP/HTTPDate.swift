package import Foundation

/// HTTP dates: formatting as IMF-fixdate and parsing the three formats RFC 9110 requires
/// ([RFC 9110 §5.6.7](https://www.rfc-editor.org/rfc/rfc9110#section-5.6.7)).
///
/// - IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT` (the only format sent)
/// - obsolete RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT` (a two-digit year more than 50 years in
///   the future means the most recent past year with those digits)
/// - obsolete asctime: `Sun Nov  6 08:49:37 1994`
///
/// Formatting and parsing are plain integer arithmetic on UTF-8 bytes — no `DateFormatter`, no
/// locale, no time zone database, no lock — so they are cheap enough for every response
/// (well under a microsecond); there is no cache to share or invalidate. HTTP dates have whole-second
/// precision: sub-second parts are truncated toward the past.
///
/// ```swift
/// HTTPDate.format(Date(timeIntervalSince1970: 784_111_777))   // "Sun, 06 Nov 1994 08:49:37 GMT"
/// HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT")            // 1994-11-06 08:49:37 +0000
/// ```
package enum HTTPDate {
    private static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let longDayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// Formats `date` as an IMF-fixdate (seconds truncated toward the past).
    package static func format(_ date: Date) -> String {
        format(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// Formats a Unix time in whole seconds as an IMF-fixdate.
    ///
    /// Times before year 1 or after year 9999 are clamped to those years' bounds.
    package static func format(secondsSince1970 seconds: Int64) -> String {
        let clamped = min(max(seconds, -62_135_596_800), 253_402_300_799)
        let days = clamped >= 0 ? clamped / 86_400 : (clamped - 86_399) / 86_400
        let secondOfDay = Int(clamped - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        let weekday = Int(((days % 7) + 11) % 7)  // 1970-01-01 was a Thursday (4).
        return String(unsafeUninitializedCapacity: 29) { buffer in
            var index = 0
            func put(_ byte: UInt8) {
                buffer[index] = byte
                index += 1
            }
            func put(_ text: String) { for byte in text.utf8 { put(byte) } }
            func put2(_ value: Int) {
                put(UInt8(truncatingIfNeeded: 0x30 + value / 10))
                put(UInt8(truncatingIfNeeded: 0x30 + value % 10))
            }
            put(dayNames[weekday])
            put(", ")
            put2(day)
            put(0x20)
            put(monthNames[month - 1])
            put(0x20)
            put2(year / 100)
            put2(year % 100)
            put(0x20)
            put2(secondOfDay / 3600)
            put(0x3A)
            put2(secondOfDay / 60 % 60)
            put(0x3A)
            put2(secondOfDay % 60)
            put(" GMT")
            return index
        }
    }

    /// Parses an HTTP date in any of the three formats.
    ///
    /// - Returns: `nil` when `value` is not a valid HTTP date (including the year 0000).
    package static func parse(_ value: String) -> Date? {
        parseSecondsSince1970(value).map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// Parses an HTTP date in any of the three formats into a Unix time in whole seconds.
    ///
    /// - Parameters:
    ///   - value: The field value; surrounding spaces are ignored.
    ///   - now: The current time, used only to place two-digit RFC 850 years. Default: now.
    /// - Returns: `nil` when `value` is not a valid HTTP date.
    package static func parseSecondsSince1970(_ value: String, now: Date = Date()) -> Int64? {
        let bytes = Array(Substring(value).utf8.trimmingWhitespace())
        if bytes.count == 29, bytes[3] == UInt8(ascii: ",") { return parseIMF(bytes) }
        if bytes.count == 24, bytes[3] == 0x20 { return parseASCTime(bytes) }
        if let comma = bytes.firstIndex(of: UInt8(ascii: ",")), comma > 3 {
            return parseRFC850(bytes, comma: comma, now: now)
        }
        return nil
    }

    // MARK: Formats

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    private static func parseIMF(_ b: [UInt8]) -> Int64? {
        guard dayNames.contains(where: { $0.utf8.elementsEqual(b[0..<3]) }),
            b[4] == 0x20, b[7] == 0x20, b[11] == 0x20, b[16] == 0x20, b[25] == 0x20,
            b[26...].elementsEqual("GMT".utf8),
            let day = number(b, 5, 2), let month = month(b, 8),
            let century = number(b, 12, 2), let yy = number(b, 14, 2),
            let time = timeOfDay(b, 17)
        else { return nil }
        return seconds(year: century * 100 + yy, month: month, day: day, time: time)
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`
    private static func parseRFC850(_ b: [UInt8], comma: Int, now: Date) -> Int64? {
        let start = comma + 2
        guard longDayNames.contains(where: { $0.utf8.elementsEqual(b[0..<comma]) }),
            b.count == start + 22, b[comma + 1] == 0x20,
            b[start + 2] == UInt8(ascii: "-"), b[start + 6] == UInt8(ascii: "-"), b[start + 9] == 0x20,
            b[start + 18] == 0x20, b[(start + 19)...].elementsEqual("GMT".utf8),
            let day = number(b, start, 2), let month = month(b, start + 3), let yy = number(b, start + 7, 2),
            let time = timeOfDay(b, start + 10)
        else { return nil }
        // RFC 9110 §5.6.7: more than 50 years in the future → the most recent past year.
        let currentYear = civil(fromDays: Int64(now.timeIntervalSince1970.rounded(.down)) / 86_400).year
        var year = currentYear - currentYear % 100 + yy
        if year > currentYear + 50 { year -= 100 }
        return seconds(year: year, month: month, day: day, time: time)
    }

    /// `Sun Nov  6 08:49:37 1994`
    private static func parseASCTime(_ b: [UInt8]) -> Int64? {
        guard dayNames.contains(where: { $0.utf8.elementsEqual(b[0..<3]) }),
            b[7] == 0x20, b[10] == 0x20, b[19] == 0x20,
            let month = month(b, 4),
            let day = b[8] == 0x20 ? number(b, 9, 1) : number(b, 8, 2),
            let time = timeOfDay(b, 11), let year = number(b, 20, 4)
        else { return nil }
        return seconds(year: year, month: month, day: day, time: time)
    }

    // MARK: Pieces

    private static func number(_ b: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
            let byte = b[index]
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    private static func month(_ b: [UInt8], _ start: Int) -> Int? {
        monthNames.firstIndex { $0.utf8.elementsEqual(b[start..<(start + 3)]) }.map { $0 + 1 }
    }

    /// `HH:MM:SS` at `start`, as seconds of the day.
    private static func timeOfDay(_ b: [UInt8], _ start: Int) -> Int? {
        guard b[start + 2] == 0x3A, b[start + 5] == 0x3A,
            let hour = number(b, start, 2), let minute = number(b, start + 3, 2), let second = number(b, start + 6, 2),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        return hour * 3600 + minute * 60 + min(second, 59)
    }

    private static func seconds(year: Int, month: Int, day: Int, time: Int) -> Int64? {
        // Year 0000 fits the grammar's 4DIGIT but names no year (1 BC precedes AD 1), and it is
        // outside what ``format(secondsSince1970:)`` can write back: such a date is not valid.
        guard year >= 1, day >= 1, day <= daysInMonth(year: year, month: month) else { return nil }
        return days(fromYear: year, month: month, day: day) * 86_400 + Int64(time)
    }

    private static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func days(fromYear year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (Int(yoe + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
    }
}
