// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    /// The JSON an update server publishes: the newest version and where to get it.
    ///
    /// ```json
    /// { "version": "2.1.0", "url": "https://cdn.example.com/app-2.1.0.zip",
    ///   "sha256": "9f86d081…", "size": 52428800, "entryPoint": "index.html" }
    /// ```
    /// `url` may be relative to the manifest's URL. `entryPoint` is optional.
    public struct PackageUpdateManifest: Codable, Hashable, Sendable {
        /// The version offered.
        public var version: String
        /// Where its zip archive is.
        public var url: String
        /// The archive's SHA-256, 64 hex digits.
        public var sha256: String
        /// The archive's size in bytes.
        public var size: Int64
        /// The entry point, relative to the package root. Default: `nil` (the package manifest's, else `index.html`).
        public var entryPoint: String?

        /// Creates a manifest.
        public init(version: String, url: String, sha256: String, size: Int64, entryPoint: String? = nil) {
            self.version = version
            self.url = url
            self.sha256 = sha256
            self.size = size
            self.entryPoint = entryPoint
        }
    }
#endif
