#if Chromium
    import SchemeKitBrowserSupport

    /// A virtual `https://<host>` origin that Chromium sees and SchemeKit serves from a registry scheme.
    ///
    /// Chromium does not let a DevTools client intercept a custom scheme (`app://` navigations end in
    /// `net::ERR_ABORTED`), so pages load from an https origin no server owns, and the adapter answers
    /// its requests from the registry: `https://app.localhost/x?y` → `app://localhost/x?y`. The page is
    /// a secure context (`isSecureContext`), with https cookies and storage.
    ///
    /// ```swift
    /// let origin = ChromiumVirtualOrigin(host: "app.localhost", scheme: "app", registryHost: "localhost")
    /// origin.registryURL(for: "https://app.localhost/a.js?v=1")   // "app://localhost/a.js?v=1"
    /// ```
    public struct ChromiumVirtualOrigin: Sendable, Hashable {
        /// The host Chromium sees, lowercased (`app.localhost`). Names under `.localhost` never reach DNS.
        public var host: String
        /// The registry scheme that serves it (`app`).
        public var scheme: String
        /// The host of the registry URLs (`localhost`).
        public var registryHost: String

        /// Creates an origin.
        ///
        /// - Parameters:
        ///   - host: The https host Chromium sees.
        ///   - scheme: The registry's scheme. Default: `"app"`.
        ///   - registryHost: The registry URLs' host. Default: `"localhost"`.
        public init(host: String, scheme: String = "app", registryHost: String = "localhost") {
            self.host = host.lowercased()
            self.scheme = scheme.lowercased()
            self.registryHost = registryHost
        }

        /// `https://<host>/`.
        public var url: String { originURL }

        /// The Fetch-domain pattern that pauses this origin's requests.
        var urlPattern: String { "https://\(host)/*" }

        /// The registry URL for a URL of this origin, or `nil` when the URL is not on it.
        package func registryURL(for url: String) -> String? { mappedRegistryURL(for: url) }
    }

    /// The shared mapping (``BrowserVirtualOrigin``): package, so the public API does not show it.
    extension ChromiumVirtualOrigin: BrowserVirtualOrigin {}
#endif
