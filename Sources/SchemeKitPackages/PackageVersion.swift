// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    public import Foundation

    /// An installed version of the package, as listed by ``PackageStore/versions()``.
    public struct PackageVersion: Hashable, Sendable {
        /// The version string, also the name of its directory under `versions/`.
        public var version: String
        /// The SHA-256 of the archive it was installed from, lowercase hex.
        public var sha256: String
        /// The size of the archive it was installed from, in bytes.
        public var archiveSize: Int64
        /// The entry point, relative to ``directory`` (e.g. `index.html`).
        public var entryPoint: String
        /// When it was installed.
        public var installedAt: Date
        /// The directory holding its files. Serve from here, never write to it.
        public var directory: URL
        /// Whether it is the active version (the one new requests are served from).
        public var isActive: Bool
        /// Whether it is the previous version (the one ``PackageStore/rollback()`` switches to).
        public var isPrevious: Bool

        /// Creates a listing entry.
        package init(
            version: String,
            sha256: String,
            archiveSize: Int64,
            entryPoint: String,
            installedAt: Date,
            directory: URL,
            isActive: Bool,
            isPrevious: Bool
        ) {
            self.version = version
            self.sha256 = sha256
            self.archiveSize = archiveSize
            self.entryPoint = entryPoint
            self.installedAt = installedAt
            self.directory = directory
            self.isActive = isActive
            self.isPrevious = isPrevious
        }
    }
#endif
