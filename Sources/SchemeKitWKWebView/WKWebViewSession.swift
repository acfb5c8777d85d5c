#if SCHEMEKIT_WEBKIT_STANDIN
    public import WebKitStandIn
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
#elseif canImport(WebKit)
    public import WebKit
#endif

#if SCHEMEKIT_WEBKIT_STANDIN || canImport(WebKit)
    public import Foundation
    public import SchemeKit

    /// A `WKWebView` a `SessionPool` hands out, resets and reuses.
    ///
    /// Give the pool the main queue as its executor; the session's methods run on the main actor:
    ///
    /// ```swift
    /// let pool = SessionPool(configuration: .init(warmCount: 1, maximumCount: 3, maximumReuses: 50),
    ///                        executor: DispatchQueue.main) {
    ///     await WKWebViewSession.make(configuration: configuration, blankURL: WKWebViewSchemeAdapter.blankURL(scheme: "app"))
    /// }
    /// let session = try await pool.acquire(for: self)
    /// session.webView.load(URLRequest(url: URL(string: "app://localhost/index.html")!))
    /// ```
    ///
    /// ## Reset
    /// ``reset()`` stops loading (the adapter stops the view's scheme tasks), removes every user
    /// script and script message handler, and loads ``blankURL`` — by default the adapter's blank
    /// page on the app's own scheme, so the view stays in the web process of the app's origin and
    /// the next load is warm. `WKWebView` has no public call to clear its back/forward list: a
    /// holder that must not see the previous holder's history should not be given a pooled view.
    ///
    /// ## Health
    /// `WKWebView` reports a crashed web content process only to its navigation delegate; call
    /// ``webContentProcessDidTerminate()`` from your
    /// `webViewWebContentProcessDidTerminate(_:)`, and the pool discards the view at its next check.
    @MainActor
    public final class WKWebViewSession: PoolableSession {
        /// The view.
        public let webView: WKWebView
        /// The page the view shows between holders.
        public let blankURL: URL
        /// How many times the view was reset (for tests and statistics).
        public private(set) var resetCount = 0
        private var terminated = false

        /// Wraps `webView`; the pool calls ``reset()`` between holders.
        ///
        /// - Parameters:
        ///   - webView: The view.
        ///   - blankURL: The page shown between holders; use ``WKWebViewSchemeAdapter/blankURL(scheme:host:)``
        ///     on the app's scheme (not `about:blank`, which moves the next app load to a new process).
        public init(webView: WKWebView, blankURL: URL) {
            self.webView = webView
            self.blankURL = blankURL
        }

        /// Makes a view with `configuration` and loads `blankURL` into it, so the web process is
        /// started before the first holder: what the pool's factory calls to pre-warm.
        public static func make(configuration: WKWebViewConfiguration, blankURL: URL) -> WKWebViewSession {
            let session = WKWebViewSession(
                webView: WKWebView(frame: .zero, configuration: configuration), blankURL: blankURL)
            _ = session.webView.load(URLRequest(url: blankURL))
            return session
        }

        /// The web content process ended; the pool discards this view at its next check.
        public func webContentProcessDidTerminate() {
            terminated = true
        }

        /// Stops loading, removes user scripts and script message handlers, and loads ``blankURL``.
        /// Throws `EngineError` with code `closed` when the web content process ended.
        @MainActor public func reset() async throws {
            guard !terminated else { throw EngineError(.closed, "the web content process ended") }
            webView.stopLoading()
            webView.configuration.userContentController.removeAllUserScripts()
            webView.configuration.userContentController.removeAllScriptMessageHandlers()
            _ = webView.load(URLRequest(url: blankURL))
            resetCount += 1
        }

        /// `false` once ``webContentProcessDidTerminate()`` was called.
        @MainActor public func isHealthy() async -> Bool {
            !terminated
        }

        /// Stops loading and marks the view unusable; the pool drops its reference.
        @MainActor public func tearDown() async {
            webView.stopLoading()
            terminated = true
        }
    }
#endif
