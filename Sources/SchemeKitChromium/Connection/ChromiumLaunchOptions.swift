#if Chromium
    public import Foundation

    /// How ``ChromiumBrowser/launch(_:)`` starts Chromium.
    ///
    /// ```swift
    /// let browser = try await ChromiumBrowser.launch(ChromiumLaunchOptions(wireFormat: .json))
    /// ```
    public struct ChromiumLaunchOptions: Sendable {
        /// The executable: a path, or a name looked up in `PATH`. Default: `"chromium"`, or the
        /// `SCHEMEKIT_CHROMIUM` environment variable when set.
        public var executable: String
        /// The wire format on the pipe. Default: ``ChromiumWireFormat/cbor``.
        public var wireFormat: ChromiumWireFormat
        /// Run without a window (`--headless`). Default: `true`.
        public var headless: Bool
        /// The profile directory; `nil` (the default) makes a fresh temporary one, removed on close.
        public var userDataDirectory: URL?
        /// Pass `--no-sandbox`. Default: `nil`, which means "when running as root" (Chromium refuses
        /// to start as root with its sandbox).
        public var noSandbox: Bool?
        /// More command-line switches, appended after SchemeKit's own. Default: none.
        public var extraArguments: [String]
        /// A file for Chromium's standard error; `nil` (the default) discards it.
        public var standardErrorPath: String?
        /// How long to wait for Chromium to answer its first command. Default: 20 seconds.
        public var startupTimeout: Duration
        /// Give this Chromium a loopback https origin for every `*.localhost` host, which adapters
        /// with `BrowserTransport/automatic` serve their `.localhost` origins from (see
        /// `BrowserTransport`). Chromium is started with `--host-resolver-rules` sending
        /// `*.localhost:443` to a listener on 127.0.0.1 that only this Chromium may connect to, and
        /// `--ignore-certificate-errors-spki-list` naming that listener's key (made for this launch)
        /// and no other. Where the listener cannot tell which process connects (systems other than
        /// Linux) there is none, and adapters intercept. Default: `true`.
        public var loopbackOrigin: Bool

        /// Creates options; every parameter has the default documented on its property.
        public init(
            executable: String? = nil,
            wireFormat: ChromiumWireFormat = .cbor,
            headless: Bool = true,
            userDataDirectory: URL? = nil,
            noSandbox: Bool? = nil,
            extraArguments: [String] = [],
            standardErrorPath: String? = nil,
            startupTimeout: Duration = .seconds(20),
            loopbackOrigin: Bool = true
        ) {
            self.executable = executable ?? ProcessInfo.processInfo.environment["SCHEMEKIT_CHROMIUM"] ?? "chromium"
            self.wireFormat = wireFormat
            self.headless = headless
            self.userDataDirectory = userDataDirectory
            self.noSandbox = noSandbox
            self.extraArguments = extraArguments
            self.standardErrorPath = standardErrorPath
            self.startupTimeout = startupTimeout
            self.loopbackOrigin = loopbackOrigin
        }
    }
#endif
