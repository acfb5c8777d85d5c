// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import SchemeKit

    /// The `Date` header value (RFC 9110 §6.6.1), formatted once per second rather than per
    /// response. One per connection handler; not thread-safe.
    struct HTTPDateCache {
        private var second: Int64 = -1
        private var value = ""

        /// The current time as an IMF-fixdate.
        mutating func now() -> String {
            let current = Int64(Date().timeIntervalSince1970)
            if current != second {
                second = current
                value = HTTPDate.format(secondsSince1970: current)
            }
            return value
        }
    }
#endif
