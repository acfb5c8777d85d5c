// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    package import HTTPTypes
    import SchemeKit

    /// The checks every request passes before it reaches the handlers: the request target, the
    /// `Host` header (DNS rebinding) and cross-site `no-cors` loads (source theft).
    ///
    /// Pure and table-tested; ``SchemeServer`` applies it first, so a rejected request never reaches
    /// a handler.
    package struct RequestGuard: Sendable {
        /// Why a request was refused, with the status it gets.
        package struct Rejection: Sendable, Equatable {
            /// The status: 400 for a malformed target, 403 for a refused host or cross-site load.
            package let status: HTTPResponse.Status
            /// A short, path-free message for the body.
            package let message: String
        }

        private let allowedHosts: Set<String>
        private let allowedSuffixes: [String]

        /// Creates a guard that also answers the given host names (`*.example.test` allows
        /// subdomains) and the bind address when it is a specific address.
        package init(allowedHosts: [String] = [], bindAddress: String? = nil) {
            var exact: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
            var suffixes = [".localhost"]
            for host in allowedHosts {
                let name = Self.normalise(host)
                if name.hasPrefix("*.") {
                    suffixes.append(String(name.dropFirst(1)))
                } else if !name.isEmpty {
                    exact.insert(name)
                }
            }
            if let bindAddress, bindAddress != "0.0.0.0", bindAddress != "::", bindAddress != "[::]" {
                exact.insert(
                    bindAddress.contains(":") && !bindAddress.hasPrefix("[") ? "[\(bindAddress)]" : bindAddress)
            }
            self.allowedHosts = exact
            self.allowedSuffixes = suffixes
        }

        /// Checks a request head; `nil` when it may proceed.
        package func check(_ head: HTTPRequest) -> Rejection? {
            if let rejection = Self.checkTarget(head.path ?? "") { return rejection }
            guard let authority = head.authority, isAllowed(host: authority) else {
                return Rejection(status: .forbidden, message: "Forbidden: host not allowed\n")
            }
            let fields = head.headerFields
            if let site = fields[.secFetchSite], site.lowercased() == "cross-site",
                let mode = fields[.secFetchMode], mode.lowercased() == "no-cors"
            {
                return Rejection(status: .forbidden, message: "Forbidden: cross-site load\n")
            }
            return nil
        }

        /// Rejects targets with a fragment, a NUL (raw or `%00`), control characters or spaces, and
        /// targets that are not in origin form.
        package static func checkTarget(_ target: String) -> Rejection? {
            let bad = Rejection(status: .badRequest, message: "Bad Request\n")
            guard target.utf8.first == UInt8(ascii: "/") else { return bad }
            var previous: (UInt8, UInt8) = (0, 0)
            for byte in target.utf8 {
                if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "#") { return bad }
                // `%00`
                if byte == UInt8(ascii: "0"), previous.1 == UInt8(ascii: "0"), previous.0 == UInt8(ascii: "%") {
                    return bad
                }
                previous = (previous.1, byte)
            }
            return nil
        }

        /// Checks the `Host` fields and the request target of a request head, strictly
        /// ([RFC 9112 §3.2](https://www.rfc-editor.org/rfc/rfc9112#section-3.2)): exactly one
        /// `Host`, whose value is a host (a DNS name, an IPv4 address or a bracketed IPv6 address)
        /// with an optional port and nothing else; a target in absolute form (`http://host/x`) must
        /// name an allowed host and the same authority as `Host`. Those get 400; a well-formed host
        /// that is not allowed gets 403 (DNS rebinding). `nil` when the request may proceed.
        func checkHost(values: [String], target: String) -> Rejection? {
            let bad = Rejection(status: .badRequest, message: "Bad Request: invalid Host\n")
            guard values.count == 1, let authority = Self.validAuthority(values[0]) else { return bad }
            if target.utf8.first != UInt8(ascii: "/"), target != "*" {
                // Absolute form: scheme "://" authority path-abempty [ "?" query ].
                let scheme = target.prefix { $0 != ":" }
                guard ["http", "https"].contains(scheme.lowercased()), target.dropFirst(scheme.count).hasPrefix("://")
                else { return bad }
                let rest = target.dropFirst(scheme.count + 3)
                let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
                guard let named = Self.validAuthority(String(rest[..<end])), named == authority,
                    rest[end...].first == "/"
                else { return bad }
            }
            guard isAllowed(host: authority) else {
                return Rejection(status: .forbidden, message: "Forbidden: host not allowed\n")
            }
            return nil
        }

        /// `value` lowercased when it is `host [ ":" port ]` and nothing else, with host a DNS name
        /// (letters, digits, `-`, `.`, `_`, `~`), an IPv4 address or a bracketed IPv6 address and
        /// port 1–5 digits; `nil` otherwise (`a@b`, `a/b`, `a, b`, `[::1].x`, spaces, an empty host).
        static func validAuthority(_ value: String) -> String? {
            let bytes = Array(value.utf8)
            var index = 0
            if bytes.first == UInt8(ascii: "[") {
                guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1 else { return nil }
                for byte in bytes[1..<close] {
                    let hex = (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
                    guard hex || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".") else { return nil }
                }
                index = close + 1
            } else {
                while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
                    let byte = bytes[index]
                    let letter = byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A
                    let digit = byte >= 0x30 && byte <= 0x39
                    guard
                        letter || digit || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
                    else { return nil }
                    index += 1
                }
                guard index > 0 else { return nil }
            }
            if index < bytes.count {
                guard bytes[index] == UInt8(ascii: ":") else { return nil }
                let port = bytes[(index + 1)...]
                guard (1...5).contains(port.count), port.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            }
            return value.lowercased()
        }

        /// Whether a `Host` value (port ignored) is answered.
        package func isAllowed(host authority: String) -> Bool {
            let name = Self.normalise(authority)
            if allowedHosts.contains(name) { return true }
            return allowedSuffixes.contains { name.hasSuffix($0) && name.count > $0.count }
        }

        /// Lowercases, strips the port and a trailing dot; keeps IPv6 brackets.
        static func normalise(_ authority: String) -> String {
            var host = Substring(authority.lowercased())
            if host.hasPrefix("[") {
                if let close = host.firstIndex(of: "]") { host = host[...close] }
            } else if let colon = host.lastIndex(of: ":") {
                host = host[..<colon]
            }
            if host.hasSuffix(".") { host = host.dropLast() }
            return String(host)
        }
    }
#endif
