#if Firefox
    public import Foundation

    /// How ``FirefoxBrowser/launch(_:)`` starts Firefox.
    ///
    /// ```swift
    /// let browser = try await FirefoxBrowser.launch(FirefoxLaunchOptions(executable: "/usr/bin/firefox-esr"))
    /// ```
    public struct FirefoxLaunchOptions: Sendable {
        /// The executable: a path, or a name looked up in `PATH`. Default: the `SCHEMEKIT_FIREFOX`
        /// environment variable when set, else `"firefox-esr"` (Debian's name).
        public var executable: String
        /// Run without a window (`--headless`). Default: `true`.
        public var headless: Bool
        /// The profile directory; `nil` (the default) makes a fresh temporary one, removed on close.
        public var profileDirectory: URL?
        /// More command-line arguments, after SchemeKit's own and before the first URL. Default: none.
        public var extraArguments: [String]
        /// A file Firefox's standard error is appended to (where it prints its WebDriver BiDi
        /// address); `nil` (the default) uses a temporary file, removed on close.
        public var standardErrorPath: String?
        /// How long Firefox may take to open WebDriver BiDi and start a session. Default: 30 seconds.
        public var startupTimeout: Duration
        /// The largest WebSocket message either side may send, in bytes: a response body goes to
        /// Firefox base64-encoded in one message, so this bounds bodies to about three quarters of
        /// it. Default: 256 MiB (Firefox itself took 89 MiB messages in tests).
        public var maximumMessageSize: Int
        /// Give this Firefox a loopback https origin for every `*.localhost` host, which adapters
        /// with `BrowserTransport/automatic` serve their `.localhost` origins from (see
        /// `BrowserTransport`). The session's proxy configuration sends `https://*.localhost`
        /// to a listener on 127.0.0.1 that only this Firefox may connect to (the profile lets
        /// `.localhost` hosts use a proxy: `network.proxy.allow_hijacking_localhost`), and the
        /// session accepts that listener's certificate (`acceptInsecureCerts`, which WebDriver
        /// scopes to the session: a certificate error of any other site is then not shown either).
        /// Where the listener cannot tell which process connects (systems other than Linux) there
        /// is none, and adapters intercept. Default: `true`.
        public var loopbackOrigin: Bool

        /// Creates options; every parameter has the default documented on its property.
        public init(
            executable: String? = nil,
            headless: Bool = true,
            profileDirectory: URL? = nil,
            extraArguments: [String] = [],
            standardErrorPath: String? = nil,
            startupTimeout: Duration = .seconds(30),
            maximumMessageSize: Int = 256 << 20,
            loopbackOrigin: Bool = true
        ) {
            self.executable = executable ?? ProcessInfo.processInfo.environment["SCHEMEKIT_FIREFOX"] ?? "firefox-esr"
            self.headless = headless
            self.profileDirectory = profileDirectory
            self.extraArguments = extraArguments
            self.standardErrorPath = standardErrorPath
            self.startupTimeout = startupTimeout
            self.maximumMessageSize = maximumMessageSize
            self.loopbackOrigin = loopbackOrigin
        }
    }
#endif
