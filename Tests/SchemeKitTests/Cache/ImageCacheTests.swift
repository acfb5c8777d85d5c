import Foundation
import Testing

@testable import SchemeKit

struct ImageCacheTests {
    @Test(arguments: [
        ("app://cdn.example/a.png", "https://cdn.example/a.png"),
        ("app://cdn.example/a.png?x=1", "https://cdn.example/a.png?x=1"),
        ("APP://CDN.Example/A.png", "https://cdn.example/A.png"),
        ("app://cdn.example:443/a.png", "https://cdn.example/a.png"),
        ("app://cdn.example:8443/a.png", "https://cdn.example:8443/a.png"),
        ("http://cdn.example:80/a.png", "https://cdn.example/a.png"),
        ("https://cdn.example/a.png#frag", "https://cdn.example/a.png"),
        ("app://user:pw@cdn.example/a%20b.png", "https://cdn.example/a%20b.png"),
        ("app://cdn.example", "https://cdn.example/"),
    ])
    func keyIsTheHTTPSEquivalent(_ url: String, _ key: String) {
        #expect(ImageCacheKey(url: URL(string: url)!).rawValue == key)
    }

    @Test func requestAndURLAgreeOnTheKey() throws {
        let request = try SchemeRequest("app://CDN.example/img/a.png?v=2")
        #expect(
            ImageCacheKey(request: request) == ImageCacheKey(url: URL(string: "https://cdn.example/img/a.png?v=2")!))
    }

    @Test func answersFromMemoryThenFromDiskAfterPurge() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let cache = ImageCache(disk: .init(directory: directory.url), clock: CacheTestClock())
        let png = testBytes(5000)
        cache.put(png, mimeType: "image/png", forKey: ImageCacheKey(url: URL(string: "https://cdn.example/a.png")!))
        let url = URL(string: "app://cdn.example/a.png")!
        #expect(
            cache.get(forKey: ImageCacheKey(url: url)) == ImageCacheHit(data: png, mimeType: "image/png", tier: .memory)
        )
        #expect(cache.totalSize.memory == 5000 + "image/png".utf8.count)
        #expect(cache.totalSize.disk > 5000)
        cache.purgeMemory()
        #expect(cache.totalSize.memory == 0)
        #expect(cache.get(forKey: ImageCacheKey(url: url))?.tier == .disk)
        #expect(cache.get(forKey: ImageCacheKey(url: url))?.tier == .memory)  // promoted
        cache.remove(forKey: ImageCacheKey(url: url))
        #expect(cache.get(forKey: ImageCacheKey(url: url)) == nil)
        #expect(cache.totalSize.total == 0)
    }

    @Test func diskEntriesServeANewInstance() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let key = ImageCacheKey(rawValue: "https://cdn.example/b.webp")
        ImageCache(disk: .init(directory: directory.url), clock: CacheTestClock())
            .put(testBytes(300), mimeType: "image/webp", forKey: key)
        let hit = ImageCache(disk: .init(directory: directory.url), clock: CacheTestClock()).get(forKey: key)
        #expect(hit == ImageCacheHit(data: testBytes(300), mimeType: "image/webp", tier: .disk))
    }

    @Test func expiryAppliesToBothTiersWithoutSleeping() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let clock = CacheTestClock()
        let cache = ImageCache(disk: .init(directory: directory.url), clock: clock)
        let key = ImageCacheKey(rawValue: "https://cdn.example/c.png")
        cache.put(testBytes(10), mimeType: "image/png", forKey: key, expiration: .seconds(30))
        clock.advance(by: .seconds(29))
        #expect(cache.get(forKey: key)?.tier == .memory)
        clock.advance(by: .seconds(2))
        #expect(cache.removeExpired() == 2)
        #expect(cache.get(forKey: key) == nil)
    }

    @Test func aDiskHitIsNotKeptInMemoryLongerThanOnDisk() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let clock = CacheTestClock()
        let cache = ImageCache(
            memory: .init(expiration: .never), disk: .init(directory: directory.url), clock: clock)
        let key = ImageCacheKey(rawValue: "k")
        cache.put(testBytes(10), mimeType: "image/png", forKey: key, expiration: .seconds(10))
        cache.purgeMemory()
        #expect(cache.get(forKey: key)?.tier == .disk)
        clock.advance(by: .seconds(11))
        #expect(cache.get(forKey: key) == nil)
    }

    @Test func anUncreatableDirectoryDegradesToMemoryOnlyWithAWarning() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("file.txt")
        try Data("x".utf8).write(to: file)
        let warnings = WarningLog()
        let cache = ImageCache(
            disk: .init(directory: file.appendingPathComponent("cache")), clock: CacheTestClock(),
            onWarning: warnings.sink
        )
        #expect(cache.disk == nil)
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("memory-only") == true)
        let key = ImageCacheKey(rawValue: "https://cdn.example/a.png")
        cache.put(testBytes(10), mimeType: "image/png", forKey: key)
        #expect(cache.get(forKey: key)?.tier == .memory)
        #expect(cache.totalSize.disk == 0)
    }

    @Test func aFailingDiskWriteKeepsTheImageInMemoryWithAWarning() throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let cacheDirectory = directory.url.appendingPathComponent("images")
        let warnings = WarningLog()
        let cache = ImageCache(
            disk: .init(directory: cacheDirectory), clock: CacheTestClock(), onWarning: warnings.sink)
        #expect(cache.disk != nil)
        // The directory disappears and a regular file takes its place: every write fails.
        try FileManager.default.removeItem(at: cacheDirectory)
        try Data("x".utf8).write(to: cacheDirectory)
        let key = ImageCacheKey(rawValue: "https://cdn.example/a.png")
        cache.put(testBytes(10), mimeType: "image/png", forKey: key)
        #expect(cache.get(forKey: key) == ImageCacheHit(data: testBytes(10), mimeType: "image/png", tier: .memory))
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("kept in memory only") == true)
    }

    @Test func cachedImageSerialisationRoundTrips() {
        let image = CachedImage(data: testBytes(33), mimeType: "image/svg+xml")
        #expect(CachedImage(serialized: image.serialized()) == image)
        #expect(CachedImage(serialized: Data([5, 0, 65])) == nil)
    }
}
