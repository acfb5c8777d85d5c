import Dispatch
public import Foundation

/// Images by URL, in memory and on disk: the cache an app's native image loader fills and
/// ``ImageCacheHandler`` serves to the web view.
///
/// Lookups ask the memory tier first, then the disk tier; a disk hit is promoted to memory.
/// Stores write both tiers. Keys are ``ImageCacheKey``s, the https equivalent of the URL, so the
/// native side and the web view (`app://…`) agree.
///
/// ```swift
/// let cache = ImageCache(disk: .init(directory: cachesURL.appending(path: "images")),
///                        onWarning: { logger.warning("\($0)") })
/// // Native side, after downloading an image:
/// cache.put(png, mimeType: "image/png", forKey: ImageCacheKey(url: URL(string: "https://cdn.example/a.png")!))
/// // Web view: app://cdn.example/a.png is now served from memory.
/// cache.get(forKey: ImageCacheKey(url: URL(string: "app://cdn.example/a.png")!))?.tier   // .memory
/// ```
///
/// ## Degrading to memory only
/// The cache never fails a request because of the disk. When the directory cannot be created
/// (a path under a regular file, no permission) the cache runs memory-only; when a disk write
/// fails (disk full, directory removed) the image stays in memory. Each time, a one-line warning
/// goes to `onWarning` — the core has no logging dependency, so pass a closure that forwards to
/// your logger (or `nil` to ignore them).
///
/// Thread-safe. Disk lookups and stores do blocking file I/O: call them off the main thread.
/// `C` is the clock expiry is measured with (`ContinuousClock` unless a test injects another).
public final class ImageCache<C: Clock>: Sendable where C.Duration == Duration {
    /// The memory tier.
    package let memory: MemoryStorage.Backend<CachedImage, C>
    /// The disk tier, or `nil` when running memory-only (none configured, or its directory could
    /// not be opened).
    package let disk: DiskStorage.Backend<C>?
    private let onWarning: (@Sendable (String) -> Void)?
    /// Where ``ImageCacheHandler`` runs the disk tier's blocking reads, writes and `fsync`s:
    /// dispatch's threads, never Swift's cooperative pool (a pool thread blocked on the disk is
    /// one fewer for every other task of the process).
    let ioQueue = DispatchQueue(label: "SchemeKit.ImageCache.io", attributes: .concurrent)

    /// Creates a cache.
    ///
    /// - Parameters:
    ///   - memory: The memory tier's limits. Default: 64 MiB, 512 entries, 5-minute expiry.
    ///   - disk: The disk tier's directory and limits, or `nil` for memory-only. When the
    ///     directory cannot be opened the cache runs memory-only and warns.
    ///   - clock: The clock expiry is measured with.
    ///   - onWarning: Receives a one-line message when the disk tier fails. Default: `nil`.
    public init(
        memory: MemoryStorage.Config = MemoryStorage.Config(),
        disk: DiskStorage.Config?,
        clock: C,
        onWarning: (@Sendable (String) -> Void)? = nil
    ) {
        self.memory = MemoryStorage.Backend(config: memory, clock: clock)
        self.onWarning = onWarning
        if let disk {
            do {
                self.disk = try DiskStorage.Backend(config: disk, clock: clock)
            } catch {
                self.disk = nil
                onWarning?("image cache: \(error); continuing memory-only")
            }
        } else {
            self.disk = nil
        }
    }

    // MARK: Put

    /// Stores an image in memory and on disk, replacing any previous image for the key.
    ///
    /// Never throws: a disk failure leaves the image in memory and sends a warning.
    ///
    /// - Parameters:
    ///   - data: The image bytes.
    ///   - mimeType: Its MIME type (`image/png`).
    ///   - key: The key.
    ///   - expiration: When the image expires, in both tiers. Default: each tier's default.
    public func put(_ data: Data, mimeType: String, forKey key: ImageCacheKey, expiration: CacheExpiration? = nil) {
        let image = CachedImage(data: data, mimeType: mimeType)
        memory.store(image, forKey: key.rawValue, expiration: expiration)
        guard let disk else { return }
        do {
            try disk.store(image.serialized(), forKey: key.rawValue, expiration: expiration)
        } catch {
            if !error.isEntryTooLarge { onWarning?("image cache: \(error); kept in memory only") }
        }
    }

    // MARK: Get

    /// The image for `key`, from memory or disk, or `nil` when absent, expired or corrupt.
    ///
    /// A disk hit is copied to memory (expiring no later than on disk).
    public func get(forKey key: ImageCacheKey) -> ImageCacheHit? {
        if let image = memory.value(forKey: key.rawValue) {
            return ImageCacheHit(data: image.data, mimeType: image.mimeType, tier: .memory)
        }
        guard let disk, let (bytes, expiresAt) = disk.entry(forKey: key.rawValue),
            let image = CachedImage(serialized: bytes)
        else { return nil }
        let memoryExpiry = memory.config.expiration.expiryDate(storedAt: memory.time.now())
        let expiry = [memoryExpiry, expiresAt].compactMap { $0 }.min()
        memory.store(image, forKey: key.rawValue, expiration: expiry.map(CacheExpiration.date) ?? .never)
        return ImageCacheHit(data: image.data, mimeType: image.mimeType, tier: .disk)
    }

    /// The image for `key` from the memory tier only (no file I/O).
    func memoryHit(forKey key: ImageCacheKey) -> ImageCacheHit? {
        memory.value(forKey: key.rawValue).map { ImageCacheHit(data: $0.data, mimeType: $0.mimeType, tier: .memory) }
    }

    /// Runs `work` on ``ioQueue`` and awaits its result: blocking disk work off the cooperative pool.
    func onIOQueue<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            ioQueue.async { continuation.resume(returning: work()) }
        }
    }

    // MARK: Maintenance

    /// Removes the image for `key` from both tiers.
    public func remove(forKey key: ImageCacheKey) {
        memory.remove(forKey: key.rawValue)
        disk?.remove(forKey: key.rawValue)
    }

    /// Empties the memory tier; the disk tier keeps everything. Call it on memory pressure.
    public func purgeMemory() {
        memory.removeAll()
    }

    /// Empties both tiers.
    public func removeAll() {
        memory.removeAll()
        disk?.removeAll()
    }

    /// Removes expired images from both tiers.
    ///
    /// - Returns: The number of entries removed (memory and disk counted separately).
    @discardableResult
    public func removeExpired() -> Int {
        memory.removeExpired() + (disk?.removeExpired() ?? 0)
    }

    /// The bytes held by each tier.
    public var totalSize: ImageCacheSize {
        ImageCacheSize(memory: memory.totalSize, disk: disk?.totalSize ?? 0)
    }
}

extension ImageCache where C == ContinuousClock {
    /// Creates a cache measuring expiry with `ContinuousClock`; see
    /// ``init(memory:disk:clock:onWarning:)``.
    public convenience init(
        memory: MemoryStorage.Config = MemoryStorage.Config(),
        disk: DiskStorage.Config?,
        onWarning: (@Sendable (String) -> Void)? = nil
    ) {
        self.init(memory: memory, disk: disk, clock: ContinuousClock(), onWarning: onWarning)
    }
}
