#if Chromium || Firefox
    /// The one rule both browser adapters use to map a virtual https origin onto a registry scheme:
    /// `https://<host>/x?y` → `<scheme>://<registryHost>/x?y`.
    package enum VirtualOriginMapping {
        /// The registry URL for `url`, or `nil` when `url` is not on `https://<host>`.
        ///
        /// - Parameters:
        ///   - url: What the browser asked for.
        ///   - host: The virtual origin's host, lowercased.
        ///   - scheme: The registry scheme.
        ///   - registryHost: The registry URLs' host.
        package static func registryURL(for url: String, host: String, scheme: String, registryHost: String) -> String?
        {
            let prefix = "https://\(host)"
            guard url.count >= prefix.count,
                url.prefix(prefix.count).lowercased() == prefix
            else { return nil }
            let rest = url.dropFirst(prefix.count)
            if rest.isEmpty { return "\(scheme)://\(registryHost)/" }
            guard let first = rest.first, first == "/" || first == "?" else { return nil }
            return "\(scheme)://\(registryHost)\(first == "?" ? "/" : "")\(rest)"
        }
    }
#endif
