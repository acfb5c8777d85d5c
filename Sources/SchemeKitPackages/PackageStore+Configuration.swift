// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    extension PackageStore {
        /// Limits and options of a ``PackageStore``.
        public struct Configuration: Hashable, Sendable {
            /// Size, count and ratio limits applied to every archive. Default: ``PackageLimits/init(maxArchiveSize:maxUncompressedSize:maxEntryCount:maxCompressionRatio:compressionRatioThreshold:)``.
            public var limits: PackageLimits
            /// Whether to flush extracted files and directories to disk (`syncfs(2)` on Linux, `sync(2)`
            /// elsewhere, plus `fsync(2)` of each renamed-into directory) before switching. Default: `true`.
            ///
            /// Without it a `SIGKILL` is still safe, but a power loss right after a switch could expose
            /// empty files.
            public var syncsToDisk: Bool
            /// Whether plain `http` URLs are accepted for downloads and update manifests. Default: `false`,
            /// only `https`. Meant for tests and loopback development servers.
            public var allowsPlainHTTP: Bool
            /// How long a download may take, body included. Default: 300 s.
            public var downloadTimeout: Duration
            /// The entry point when neither the request nor the package manifest names one. Default: `index.html`.
            public var defaultEntryPoint: String

            /// Creates a configuration; every parameter defaults to the value documented on its property.
            public init(
                limits: PackageLimits = PackageLimits(),
                syncsToDisk: Bool = true,
                allowsPlainHTTP: Bool = false,
                downloadTimeout: Duration = .seconds(300),
                defaultEntryPoint: String = "index.html"
            ) {
                self.limits = limits
                self.syncsToDisk = syncsToDisk
                self.allowsPlainHTTP = allowsPlainHTTP
                self.downloadTimeout = downloadTimeout
                self.defaultEntryPoint = defaultEntryPoint
            }
        }
    }
#endif
