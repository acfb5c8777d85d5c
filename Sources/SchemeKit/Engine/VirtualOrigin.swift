/// A virtual `https://<host>` origin that a browser sees and SchemeKit serves from a registry
/// scheme: the way in for engines that let no client intercept a custom scheme.
///
/// Headless Chromium (the DevTools `Fetch` domain) and Firefox (WebDriver BiDi) intercept requests
/// by URL pattern, but neither loads a page from `app://`. Pages load instead from an https origin
/// that no server owns, and the engine's adapter answers its requests from the registry:
/// `https://app.localhost/x?y` → `app://localhost/x?y`. The request never reaches DNS or TLS, and the
/// page is a secure context (`isSecureContext`), with https cookies and storage. One origin type
/// serves both adapters (`ChromiumAdapterConfiguration.origins`, `FirefoxAdapterConfiguration.origins`).
///
/// ```swift
/// let origin = VirtualOrigin(host: "app.localhost", scheme: "app", registryHost: "localhost")
/// origin.url   // "https://app.localhost/", served as app://localhost/
/// ```
public struct VirtualOrigin: Sendable, Hashable {
    /// The host the browser sees, lowercased (`app.localhost`). Names under `.localhost` never
    /// reach DNS.
    public var host: String
    /// The registry scheme that serves it (`app`), lowercased.
    public var scheme: String
    /// The host of the registry URLs (`localhost`).
    public var registryHost: String

    /// Creates an origin.
    ///
    /// - Parameters:
    ///   - host: The https host the browser sees; lowercased.
    ///   - scheme: The registry's scheme; lowercased. Default: `"app"`.
    ///   - registryHost: The registry URLs' host. Default: `"localhost"`.
    public init(host: String, scheme: String = "app", registryHost: String = "localhost") {
        self.host = host.lowercased()
        self.scheme = scheme.lowercased()
        self.registryHost = registryHost
    }

    /// `https://<host>/`: where a page of this origin starts.
    public var url: String { "https://\(host)/" }
}
