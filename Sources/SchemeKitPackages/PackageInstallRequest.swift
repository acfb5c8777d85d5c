// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    public import Foundation

    /// What to install: where the archive is, and what it must be.
    ///
    /// ```swift
    /// let request = PackageInstallRequest(
    ///     source: .remote(URL(string: "https://example.com/app-2.1.0.zip")!),
    ///     version: "2.1.0", sha256: "9f86d0…", size: 52_428_800)
    /// let installed = try await store.install(request)
    /// ```
    public struct PackageInstallRequest: Hashable, Sendable {
        /// Where the zip archive comes from.
        public enum Source: Hashable, Sendable {
            /// A zip file on this machine. It is copied (and hashed) into the store first, so changes to
            /// the file during the install cannot reach the store.
            case file(URL)
            /// An `https` URL, fetched through the store's `SchemeHTTPClient`.
            case remote(URL)

            /// Parses a command line argument: `http://` and `https://` URLs are remote, anything else is a
            /// file path (relative paths resolve against the current directory).
            package init(argument: String) {
                let lowercased = argument.lowercased()
                if lowercased.hasPrefix("https://") || lowercased.hasPrefix("http://"), let url = URL(string: argument)
                {
                    self = .remote(url)
                } else {
                    self = .file(URL(fileURLWithPath: argument))
                }
            }
        }

        /// Where the archive comes from.
        public var source: Source
        /// The version to install it as. Default: `nil`, the `version` of the package's
        /// `schemekit-package.json`; without either the install fails with ``PackageStoreError/Kind/missingVersion``.
        public var version: String?
        /// The expected SHA-256 of the archive, 64 hex digits (either case). Default: `nil`, not checked
        /// (the CRC-32 of every entry is then checked instead).
        public var sha256: String?
        /// The expected size of the archive in bytes. Default: `nil`, not checked.
        public var size: Int64?
        /// The page that must exist, relative to the package root. Default: `nil`, the `entryPoint` of the
        /// package's `schemekit-package.json`, else `index.html`.
        public var entryPoint: String?

        /// Creates a request; see the properties for the defaults.
        public init(
            source: Source,
            version: String? = nil,
            sha256: String? = nil,
            size: Int64? = nil,
            entryPoint: String? = nil
        ) {
            self.source = source
            self.version = version
            self.sha256 = sha256
            self.size = size
            self.entryPoint = entryPoint
        }
    }
#endif
