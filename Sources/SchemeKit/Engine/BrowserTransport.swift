/// How a browser engine adapter (Chromium, Firefox) brings the requests of its virtual origins to
/// its registry.
///
/// ```swift
/// var configuration = ChromiumAdapterConfiguration(origins: [VirtualOrigin(host: "app.localhost")])
/// configuration.transport = .interception      // force the protocol's interception
/// ```
public enum BrowserTransport: Sendable, Hashable {
    /// A loopback https origin where it can be used, interception elsewhere (the default).
    ///
    /// A browser SchemeKit launched reaches every `https://*.localhost` host at a listener of
    /// its own on 127.0.0.1 (Chromium through its host resolver, Firefox through its proxy
    /// configuration), over TLS with a key made for that launch. An adapter whose origins are all
    /// under `.localhost` is served there: the page talks to what is, to the browser, a real web
    /// server. Bodies stream as the handler writes them (server-sent events, unknown lengths,
    /// media of any size, ranges as asked), and cookies, the Cache API, service workers and
    /// shared workers behave as on any https origin. No protocol message is made per request.
    /// Only the browser may connect to the listener: any other local process's connection is
    /// closed unread (Linux; elsewhere this falls back to interception).
    ///
    /// An attached browser (`connect(to:)`), an origin whose host is not under `.localhost`, or
    /// an adapter whose pass policy is not the registry's 404 (continuing a request to the
    /// network, or failing it, needs the request held by the protocol) uses ``interception``.
    case automatic
    /// Every request through the browser protocol's interception (Chromium's `Fetch` domain,
    /// WebDriver BiDi's `network.addIntercept`): each response goes back in one protocol
    /// message, so its body is collected whole first, bounded by what one message carries, and
    /// open-ended media ranges are narrowed. Works with any host and any browser the adapter can
    /// reach, a remote one included.
    case interception
}
