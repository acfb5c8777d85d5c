// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    /// Limits that protect the store from oversized archives and zip bombs.
    ///
    /// The limits are enforced while the bytes arrive and while entries are inflated, counting the bytes
    /// actually produced: the sizes declared in the zip's headers are checked too, but never trusted alone.
    public struct PackageLimits: Hashable, Sendable {
        /// The largest archive accepted, in bytes (download or copy). Default: 1 GiB.
        public var maxArchiveSize: Int64
        /// The largest total uncompressed size of all entries, in bytes. Default: 1 GiB.
        public var maxUncompressedSize: Int64
        /// The largest number of entries (files and directories). Default: 100,000.
        public var maxEntryCount: Int
        /// The largest ratio of uncompressed to compressed size for one entry. Default: 200.
        ///
        /// Applied only to entries whose inflated size exceeds ``compressionRatioThreshold``, so that small,
        /// very repetitive files (a page of spaces) are accepted.
        public var maxCompressionRatio: Int64
        /// The inflated size below which ``maxCompressionRatio`` is not applied. Default: 1 MiB.
        public var compressionRatioThreshold: Int64

        /// Creates limits; every parameter defaults to the value documented on its property.
        public init(
            maxArchiveSize: Int64 = 1 << 30,
            maxUncompressedSize: Int64 = 1 << 30,
            maxEntryCount: Int = 100_000,
            maxCompressionRatio: Int64 = 200,
            compressionRatioThreshold: Int64 = 1 << 20
        ) {
            self.maxArchiveSize = maxArchiveSize
            self.maxUncompressedSize = maxUncompressedSize
            self.maxEntryCount = maxEntryCount
            self.maxCompressionRatio = maxCompressionRatio
            self.compressionRatioThreshold = compressionRatioThreshold
        }
    }
#endif
