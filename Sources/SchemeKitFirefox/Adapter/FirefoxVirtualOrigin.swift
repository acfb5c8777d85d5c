#if Firefox
    import SchemeKitBrowserSupport

    /// A virtual `https://<host>` origin that Firefox sees and SchemeKit serves from a registry scheme.
    ///
    /// WebDriver BiDi intercepts requests by URL pattern; an https origin that no server owns is
    /// answered by the adapter from the registry: `https://app.localhost/x?y` → `app://localhost/x?y`.
    /// The request never reaches DNS or TLS, and the page is a secure context (`isSecureContext`
    /// is `true`, measured in Firefox 153), with https cookies and storage.
    ///
    /// ```swift
    /// let origin = FirefoxVirtualOrigin(host: "app.localhost", scheme: "app", registryHost: "localhost")
    /// origin.registryURL(for: "https://app.localhost/a.js?v=1")   // "app://localhost/a.js?v=1"
    /// ```
    public struct FirefoxVirtualOrigin: Sendable, Hashable {
        /// The host Firefox sees, lowercased (`app.localhost`). Names under `.localhost` never reach DNS.
        public var host: String
        /// The registry scheme that serves it (`app`).
        public var scheme: String
        /// The host of the registry URLs (`localhost`).
        public var registryHost: String

        /// Creates an origin.
        ///
        /// - Parameters:
        ///   - host: The https host Firefox sees.
        ///   - scheme: The registry's scheme. Default: `"app"`.
        ///   - registryHost: The registry URLs' host. Default: `"localhost"`.
        public init(host: String, scheme: String = "app", registryHost: String = "localhost") {
            self.host = host.lowercased()
            self.scheme = scheme.lowercased()
            self.registryHost = registryHost
        }

        /// `https://<host>/`.
        public var url: String { originURL }

        /// The registry URL for a URL of this origin, or `nil` when the URL is not on it.
        package func registryURL(for url: String) -> String? { mappedRegistryURL(for: url) }
    }

    /// The shared mapping (``BrowserVirtualOrigin``): package, so the public API does not show it.
    extension FirefoxVirtualOrigin: BrowserVirtualOrigin {}
#endif
