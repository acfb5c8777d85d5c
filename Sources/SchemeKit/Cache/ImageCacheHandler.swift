import HTTPTypes

/// Serves images from an ``ImageCache``; on a miss asks an upstream handler and stores what it
/// returns (write-through).
///
/// Requests for images — by extension or `Accept: image/*`, as ``RequestKind/of(_:)`` decides —
/// are looked up under their https equivalent (``ImageCacheKey``), so an image the app's native
/// loader cached for `https://cdn.example/a.png` answers `app://cdn.example/a.png` at once.
///
/// ```swift
/// let images = ImageCache(disk: .init(directory: cachesURL.appending(path: "images")))
/// let handler = ImageCacheHandler(cache: images, upstream: networkHandler)
/// try registry.register(SchemeHandlerChain(localFiles, handler, networkHandler), for: "app")
/// ```
///
/// ## Behaviour
/// - Not an image request, or not GET/HEAD: ``SchemeHandlerOutcome/passed``, nothing written.
/// - Hit: 200 with `Content-Type` (the stored MIME type) and `Content-Length`; HEAD gets no body.
/// - Miss with an `upstream`: the upstream answers through a writer that forwards every call to
///   the engine and keeps a copy. The copy is stored only when the request was a GET and the
///   response was 200, `image/*`, not `Cache-Control: no-store`, at most
///   `maximumStoredSize` bytes, finished (not failed or stopped), and as long as its
///   `Content-Length` said. The upstream's outcome is returned.
/// - Miss without an upstream (or one that does not support the method): passes.
/// - A stop while the upstream writes stores nothing; this handler writes nothing after it.
/// - The disk tier failing never fails the request (see ``ImageCache``).
/// - Disk reads and writes (with their `fsync`) run on the cache's own dispatch queue, never on
///   Swift's cooperative pool; a memory hit is answered without leaving the handler's task.
public struct ImageCacheHandler<C: Clock>: SchemeHandler where C.Duration == Duration {
    /// The cache answering requests and receiving what the upstream returns.
    package let cache: ImageCache<C>
    /// The handler asked on a miss, whose 200 image responses are stored; `nil` to only serve
    /// what the native side put in the cache.
    package let upstream: (any SchemeHandler)?
    /// The largest upstream response body stored, in bytes. Default: 16 MiB.
    package let maximumStoredSize: Int
    /// The expiration of stored upstream responses. Default: `nil`, the cache tiers' defaults.
    package let expiration: CacheExpiration?

    /// Creates the handler.
    ///
    /// - Parameters:
    ///   - cache: The cache.
    ///   - upstream: The handler asked on a miss. Default: `nil`.
    ///   - maximumStoredSize: The largest body stored from the upstream. Default: 16 MiB.
    ///   - expiration: The expiration of stored upstream responses. Default: the tiers' defaults.
    public init(
        cache: ImageCache<C>,
        upstream: (any SchemeHandler)? = nil,
        maximumStoredSize: Int = 16 * 1024 * 1024,
        expiration: CacheExpiration? = nil
    ) {
        self.cache = cache
        self.upstream = upstream
        self.maximumStoredSize = maximumStoredSize
        self.expiration = expiration
    }

    /// `"image-cache"`.
    public var name: String { "image-cache" }

    /// Answers image requests from the cache or through the upstream; passes the rest.
    public func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
    {
        guard request.method == .get || request.method == .head, RequestKind.of(request) == .image else {
            return .passed
        }
        let key = ImageCacheKey(request: request)
        let cache = self.cache
        // A memory hit costs no I/O; the disk tier's read runs on the cache's I/O queue.
        let found: ImageCacheHit?
        if let hit = cache.memoryHit(forKey: key) {
            found = hit
        } else if cache.disk != nil {
            found = await cache.onIOQueue { cache.get(forKey: key) }
        } else {
            found = nil
        }
        if let hit = found {
            let head = SchemeResponse(status: .ok, mimeType: hit.mimeType, expectedContentLength: Int64(hit.data.count))
            try await writer.writeHead(head)
            if request.method == .get, !hit.data.isEmpty { try await writer.write(hit.data) }
            try await writer.finish()
            return .handled
        }
        guard let upstream, upstream.supportedMethods.contains(request.method) else { return .passed }
        let tee = ImageCacheTeeWriter(base: writer, limit: request.method == .get ? maximumStoredSize : -1)
        let outcome = try await upstream.handle(request, writer: tee)
        if outcome == .handled, !Task.isCancelled, let image = tee.completedImage {
            let expiration = self.expiration
            // The disk write and its fsync run on the cache's I/O queue, not the cooperative pool.
            await cache.onIOQueue {
                cache.put(image.data, mimeType: image.mimeType, forKey: key, expiration: expiration)
            }
        }
        return outcome
    }
}
