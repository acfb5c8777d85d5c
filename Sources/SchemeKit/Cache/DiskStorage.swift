public import Foundation

/// The on-disk cache tier: one file per entry in a directory, a size limit with
/// least-recently-used eviction, per-entry expiry, and crash-safe writes.
///
/// A namespace, in the shape of Kingfisher's `DiskStorage`: `Backend` holds the entries,
/// ``Config`` its directory and limits.
///
/// ```swift
/// // The disk tier of an image cache: entries survive a restart.
/// let cache = ImageCache(disk: DiskStorage.Config(directory: cachesURL.appending(path: "images")))
/// cache.put(png, mimeType: "image/png", forKey: ImageCacheKey(url: URL(string: "https://cdn.example/a.png")!))
/// cache.get(forKey: ImageCacheKey(url: URL(string: "https://cdn.example/a.png")!))?.data   // png, also after a restart
/// ```
public enum DiskStorage {
    /// The directory, limits and defaults of a `Backend`.
    public struct Config: Sendable, Hashable {
        /// The directory holding the entries; created (with its parents) when missing.
        ///
        /// Use a directory of its own: the backend removes files it does not recognise as its
        /// own only when they look like its temporary files, but `removeAll()` deletes
        /// every entry file in it.
        public var directory: URL
        /// The most bytes (entry files, headers included) kept. Default: 256 MiB.
        ///
        /// Storing past the limit evicts expired entries, then least-recently-used ones; a single
        /// entry larger than the limit is refused.
        public var sizeLimit: Int
        /// The expiration of entries stored without one. Default: 7 days.
        public var expiration: CacheExpiration
        /// Temporary files left by a writer that crashed are removed when the backend opens the
        /// directory and they are at least this old (younger ones may belong to another process
        /// writing right now). Default: 10 minutes.
        public var staleTemporaryFileAge: Duration

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - directory: The cache directory.
        ///   - sizeLimit: The most bytes kept. Default: 256 MiB.
        ///   - expiration: The default expiration. Default: 7 days.
        ///   - staleTemporaryFileAge: When leftover temporary files are removed. Default: 10 minutes.
        public init(
            directory: URL,
            sizeLimit: Int = 256 * 1024 * 1024,
            expiration: CacheExpiration = .after(.seconds(7 * 24 * 3600)),
            staleTemporaryFileAge: Duration = .seconds(600)
        ) {
            self.directory = directory
            self.sizeLimit = sizeLimit
            self.expiration = expiration
            self.staleTemporaryFileAge = staleTemporaryFileAge
        }
    }
}

extension DiskStorage {
    static let entrySuffix = ".entry"
    static let temporaryPrefix = ".tmp-"

    /// The entry file name for `key`: its 128-bit FNV-1a hash in hex, plus `.entry`.
    static func fileName(forKey key: String) -> String {
        FNV1a.hash128Hex(key) + entrySuffix
    }

    /// What the index says about a key, before its file is read.
    enum Lookup {
        case miss
        case indexed(serial: UInt64)
        case probe
    }
}
