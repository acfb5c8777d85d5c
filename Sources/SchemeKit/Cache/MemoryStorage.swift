/// The in-memory cache tier: least-recently-used eviction by total byte cost and entry count,
/// with per-entry expiry.
///
/// A namespace, in the shape of Kingfisher's `MemoryStorage`: `Backend` holds the entries,
/// ``Config`` its limits.
///
/// ```swift
/// // A memory-only image cache of at most 32 MiB.
/// let cache = ImageCache(memory: MemoryStorage.Config(totalCostLimit: 32 << 20), disk: nil)
/// cache.put(png, mimeType: "image/png", forKey: ImageCacheKey(url: URL(string: "https://cdn.example/a.png")!))
/// cache.get(forKey: ImageCacheKey(url: URL(string: "https://cdn.example/a.png")!))?.data   // png
/// ```
public enum MemoryStorage {
    /// Limits and defaults of a `Backend`.
    public struct Config: Sendable, Hashable {
        /// The most bytes (sum of `cacheCost`) kept. Default: 64 MiB.
        ///
        /// Storing past the limit evicts least-recently-used entries; a single value costing more
        /// than the limit is not stored.
        public var totalCostLimit: Int
        /// The most entries kept. Default: 512.
        public var countLimit: Int
        /// The expiration of entries stored without one. Default: 5 minutes.
        public var expiration: CacheExpiration

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - totalCostLimit: The most bytes kept. Default: 64 MiB.
        ///   - countLimit: The most entries kept. Default: 512.
        ///   - expiration: The default expiration. Default: 5 minutes.
        public init(
            totalCostLimit: Int = 64 * 1024 * 1024,
            countLimit: Int = 512,
            expiration: CacheExpiration = .after(.seconds(300))
        ) {
            self.totalCostLimit = totalCostLimit
            self.countLimit = countLimit
            self.expiration = expiration
        }
    }
}
