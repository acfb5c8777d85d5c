public import Foundation
public import SchemeKit

/// Where the resource handlers come from: the seam between schemeserve and SchemeKit's handlers.
///
/// ``ServeHandlerChainBuilder`` asks these factories for the file handler, the image cache and
/// the network fallback, and wraps them with schemeserve's own handlers (dotfile guard,
/// precompressed siblings, small-file cache, listing). Swap a factory to serve through another
/// implementation; ``interim`` is the built-in set.
public struct ServeHandlerFactories: Sendable {
    /// Options the file handler is built with.
    public struct FileOptions: Sendable {
        /// The directory to serve.
        public var root: URL
        /// Whether an extensionless path that matches nothing gets `/index.html`.
        public var spa: Bool
    }

    /// Makes the handler that serves files under a directory; it must pass (not answer 404) for
    /// missing files so the chain can fall back.
    public var files: @Sendable (FileOptions) throws -> any SchemeHandler
    /// Makes the image cache for a cache directory, in front of `next` (the network fallback, when
    /// there is one; the cache stores what it produces), or `nil` when unavailable.
    public var imageCache: (@Sendable (_ directory: URL, _ next: (any SchemeHandler)?) throws -> any SchemeHandler)?
    /// Makes the network fallback for an origin, or `nil` when unavailable.
    public var network: (@Sendable (_ origin: URL) throws -> any SchemeHandler)?

    /// Creates factories.
    public init(
        files: @escaping @Sendable (FileOptions) throws -> any SchemeHandler,
        imageCache: (@Sendable (URL, (any SchemeHandler)?) throws -> any SchemeHandler)? = nil,
        network: (@Sendable (URL) throws -> any SchemeHandler)? = nil
    ) {
        self.files = files
        self.imageCache = imageCache
        self.network = network
    }

    /// The built-in handlers.
    ///
    /// TEMPORARY: until SchemeKit's `LocalFileHandler`, `ImageCacheHandler` and
    /// `NetworkFallbackHandler` are merged, these are schemeserve's interim stand-ins (no image
    /// cache yet: `--image-cache` is refused).
    public static var interim: ServeHandlerFactories {
        ServeHandlerFactories(
            files: { options in
                guard let resolver = ServePathResolver(root: options.root) else {
                    throw ServeError.notADirectory(options.root.path(percentEncoded: false))
                }
                return InterimFileHandler(resolver: resolver, spa: options.spa)
            },
            imageCache: nil,
            network: { origin in InterimNetworkHandler(origin: origin) }
        )
    }
}
