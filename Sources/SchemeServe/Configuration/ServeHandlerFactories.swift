// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    package import Foundation
    package import SchemeKit
    import SchemeKitAsyncHTTPClient

    /// Where the resource handlers come from: the seam between schemeserve and SchemeKit's handlers.
    ///
    /// `ServeHandlerChainBuilder` asks these factories for the file handler, the image cache and
    /// the network fallback, and chains them. Everything about files (dotfiles, precompressed
    /// siblings, the small-file body cache, traversal safety) is the file handler's, configured
    /// through ``FileOptions``. The CLI swaps a factory to put HAR replay or recording in the chain,
    /// and tests swap one to serve through a hanging or counting handler; ``standard`` is SchemeKit's
    /// set. Package access: a user who embeds ``SchemeServer`` adds handlers of their own by
    /// registering them on ``SchemeServer/registry``.
    package struct ServeHandlerFactories: Sendable {
        /// Options the file handler is built with.
        package struct FileOptions: Sendable {
            /// The directory to serve.
            package var root: URL
            /// Resolves the directory to serve per request (in place of ``root``), or `nil`; see
            /// ``ServeConfiguration/rootProvider``.
            package var rootProvider: (@Sendable () throws -> URL)?
            /// Whether an extensionless path that matches nothing gets `/index.html`.
            package var spa: Bool
            /// Whether dotfiles and dot-directories are served.
            package var dotfiles: Bool
            /// Which symbolic links are followed.
            package var symlinks: LocalFileHandler.SymlinkPolicy = .followWithinRoot
            /// Whether directories without an index file are listed.
            package var listDirectories: Bool
            /// Whether `name.br` / `name.gz` siblings are served, with `Content-Encoding`, to clients
            /// that accept them.
            package var precompressed: Bool
            /// Limits of the in-memory cache of small files' bodies, or `nil` for none.
            package var bodyCache: LocalFileHandler.BodyCache?
            /// Content codings applied on the fly to compressible files held in memory (gzip when
            /// ``ServeConfiguration/gzip`` is on), each made once per file and kept in the body cache.
            package var encoders: [any SchemeContentEncoder] = []
        }

        /// Options the network fallback is built with.
        package struct NetworkOptions: Sendable {
            /// The origin paths no local file matches are fetched from.
            package var origin: URL
            /// Which header fields cross; see ``ServeConfiguration/fallbackForwarding``.
            package var forwarding: NetworkForwardingPolicy
        }

        /// Makes the handler that serves files under a directory; it must pass (not answer 404) for
        /// missing files so the chain can fall back.
        package var files: @Sendable (FileOptions) throws -> any SchemeHandler
        /// Makes the image cache for a cache directory, in front of `next` (the network fallback, when
        /// there is one; the cache stores what it produces), or `nil` when unavailable.
        package var imageCache:
            (@Sendable (_ directory: URL, _ next: (any SchemeHandler)?) throws -> any SchemeHandler)?
        /// Makes the network fallback for an origin, or `nil` when unavailable.
        package var network: (@Sendable (NetworkOptions) throws -> any SchemeHandler)?

        /// Creates factories.
        package init(
            files: @escaping @Sendable (FileOptions) throws -> any SchemeHandler,
            imageCache: (@Sendable (URL, (any SchemeHandler)?) throws -> any SchemeHandler)? = nil,
            network: (@Sendable (NetworkOptions) throws -> any SchemeHandler)? = nil
        ) {
            self.files = files
            self.imageCache = imageCache
            self.network = network
        }

        /// Connections to the `--fallback` origin at once: enough that streams a page holds open
        /// (server-sent events, long polls, downloads) in several tabs never make other requests
        /// wait (a browser opens 6 per host per profile; nginx sets no limit).
        static let originConnections = 64
        /// How long the origin may take to start answering: a backend stopped at a breakpoint, a
        /// cold start, a slow report (nginx's `proxy_read_timeout`). Then 504.
        static let originHeadTimeout = Duration.seconds(60)
        /// How long one exchange with the origin may last in all: an event stream or a download
        /// on a slow link runs this long.
        static let originExchangeTimeout = Duration.seconds(3600)

        /// SchemeKit's handlers: `LocalFileHandler` (its root dynamic when a root provider is given;
        /// symlinks followed as the options say, hidden files denied with 404 unless `dotfiles`,
        /// listing with `listDirectories`, a directory asked for without its trailing slash
        /// redirected to it, `.br`/`.gz` siblings with `precompressed`, the body cache with
        /// `bodyCache`, `Cache-Control: no-cache`),
        /// `ImageCacheHandler` over a memory tier and a disk tier in the given directory, and
        /// `NetworkFallbackHandler` rewriting `scheme://host/path` to the origin's scheme, host and
        /// port (the origin's path is not used), GET, HEAD, POST, PUT, PATCH and DELETE with their
        /// bodies (up to 16 MiB), with the options' forwarding policy, through
        /// AsyncHTTPClient (`AsyncHTTPSchemeClient`: one request to the origin per request, and
        /// real back-pressure, so memory stays bounded however slow the browser reads), up to 64
        /// connections at once, 60 s for the origin's head (then 504) and an hour per exchange.
        package static var standard: ServeHandlerFactories {
            ServeHandlerFactories(
                files: { options in
                    LocalFileHandler(
                        configuration: LocalFileHandler.Configuration(
                            root: options.rootProvider.map { .dynamic($0) } ?? .directory(options.root),
                            singlePageFallback: options.spa,
                            symlinks: options.symlinks,
                            hiddenFiles: options.dotfiles ? .allow : .deny,
                            directoryListing: options.listDirectories,
                            directorySlashRedirect: true,
                            bodyCache: options.bodyCache,
                            precompressed: options.precompressed ? [.brotli, .gzip] : [],
                            encoders: options.encoders
                        )
                    )
                },
                imageCache: { directory, next in
                    ImageCacheHandler(cache: ImageCache(disk: DiskStorage.Config(directory: directory)), upstream: next)
                },
                network: { options in
                    let origin = options.origin
                    let rule = NetworkRewriteRule(
                        scheme: origin.scheme ?? "https", host: origin.host(percentEncoded: false), port: origin.port)
                    // The origin is named by the rule, so every app:// request goes there as
                    // given; http(s) URLs (fetched as they are) only to the origin's own host.
                    let originHost = origin.host(percentEncoded: true).map { [$0] } ?? []
                    return NetworkFallbackHandler(
                        allowedHosts: NetworkAllowedHosts(validOf: originHost),
                        upstream: NetworkUpstream(
                            client: AsyncHTTPSchemeClient(maximumConnectionsPerHost: Self.originConnections),
                            rewriter: NetworkRewriter(defaultRule: rule), forwarding: options.forwarding,
                            connectTimeout: Self.originHeadTimeout, timeout: Self.originExchangeTimeout),
                        configuration: .init(supportedMethods: [.get, .head, .post, .put, .patch, .delete]))
                }
            )
        }
    }
#endif
