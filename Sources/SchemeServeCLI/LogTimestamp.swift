// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import SchemeKit

    /// A log line's time, `2025-01-01T12:00:00Z` (ISO 8601 in UTC, whole seconds: what
    /// `Date.formatted(.iso8601)` writes), made from `gmtime_r` and a few digits rather than a
    /// Foundation format style, which cost more than the rest of an access-log line.
    enum LogTimestamp {
        /// The last second formatted, and its text.
        private static let last = Locked<(second: Int, text: String)>((-1, ""))

        /// The current time (formatted once per second).
        static func now() -> String {
            let second = time(nil)
            if let text = last.withLock({ $0.second == second ? $0.text : nil }) { return text }
            let text = format(second)
            last.withLock { $0 = (second, text) }
            return text
        }

        /// `seconds` since 1970 as `2025-01-01T12:00:00Z`.
        static func format(_ second: Int) -> String {
            var seconds = second
            var parts = tm()
            gmtime_r(&seconds, &parts)
            var bytes = [UInt8]()
            bytes.reserveCapacity(20)
            func digits(_ value: Int32, _ count: Int) {
                var divisor: Int32 = 1
                for _ in 1..<count { divisor *= 10 }
                while divisor > 0 {
                    bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                    divisor /= 10
                }
            }
            digits(parts.tm_year + 1900, 4)
            bytes.append(UInt8(ascii: "-"))
            digits(parts.tm_mon + 1, 2)
            bytes.append(UInt8(ascii: "-"))
            digits(parts.tm_mday, 2)
            bytes.append(UInt8(ascii: "T"))
            digits(parts.tm_hour, 2)
            bytes.append(UInt8(ascii: ":"))
            digits(parts.tm_min, 2)
            bytes.append(UInt8(ascii: ":"))
            digits(parts.tm_sec, 2)
            bytes.append(UInt8(ascii: "Z"))
            return String(decoding: bytes, as: UTF8.self)
        }
    }
#endif
