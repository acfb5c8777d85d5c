#if Chromium || Firefox
    /// A browser adapter's virtual `https://<host>` origin, served from a registry scheme: what both
    /// engines' public origin types (`ChromiumVirtualOrigin`, `FirefoxVirtualOrigin`) share.
    ///
    /// Contract: `host` and `scheme` are lowercased by the conforming type's initializer; the
    /// mapping is ``VirtualOriginMapping``'s, the one rule both adapters use.
    package protocol BrowserVirtualOrigin: Sendable {
        /// The host the browser sees, lowercased (`app.localhost`).
        var host: String { get }
        /// The registry scheme that serves it (`app`), lowercased.
        var scheme: String { get }
        /// The host of the registry URLs (`localhost`).
        var registryHost: String { get }
    }

    extension BrowserVirtualOrigin {
        /// `https://<host>/`.
        package var originURL: String { "https://\(host)/" }

        /// The registry URL for a URL of this origin, or `nil` when the URL is not on it.
        package func mappedRegistryURL(for url: String) -> String? {
            VirtualOriginMapping.registryURL(for: url, host: host, scheme: scheme, registryHost: registryHost)
        }
    }

    extension Sequence where Element: BrowserVirtualOrigin {
        /// The registry URL for `url` on the first origin that owns it, or `nil` when none does (a
        /// request the browser matched more widely than the adapter serves: it is let go).
        package func registryURL(for url: String) -> String? {
            for origin in self {
                if let mapped = origin.mappedRegistryURL(for: url) { return mapped }
            }
            return nil
        }
    }
#endif
