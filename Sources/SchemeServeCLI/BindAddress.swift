// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Checks `--bind` before anything is printed or bound.
    ///
    /// An IP address literal must be a valid one: `999.1.1.1` is refused here, as a usage error, instead
    /// of being looked up as a host name and failing later with a resolver error. `[::1]` is accepted
    /// as `::1`. Anything else must look like a host name (letters, digits, `-` and `.`); whether it
    /// resolves to an address of this machine is found out when binding (a run-time failure).
    enum BindAddress {
        /// A one-line message when `address` cannot be a bind address, `nil` when it may be one.
        static func problem(with address: String) -> String? {
            let fix = "use 127.0.0.1 (this machine only), 0.0.0.0 (every interface) or ::1"
            var literal = address
            if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
            if literal.contains(":") {
                return isIPv6(literal) ? nil : "invalid --bind '\(address)': not an IPv6 address; \(fix)"
            }
            if !literal.isEmpty, literal.allSatisfy({ $0 == "." || $0.isASCII && $0.isNumber }) {
                return isIPv4(literal) ? nil : "invalid --bind '\(address)': not an IPv4 address; \(fix)"
            }
            let hostName = literal.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
                !label.isEmpty && label.count <= 63 && !label.hasPrefix("-")
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
            return hostName ? nil : "invalid --bind '\(address)': not an IP address or host name; \(fix)"
        }

        static func isIPv4(_ text: String) -> Bool {
            var address = in_addr()
            return inet_pton(AF_INET, text, &address) == 1
        }

        static func isIPv6(_ text: String) -> Bool {
            var address = in6_addr()
            return inet_pton(AF_INET6, text, &address) == 1
        }
    }
#endif
