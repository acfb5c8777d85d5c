import Foundation
public import SchemeKit

/// Builds the handler chain a ``ServeConfiguration`` describes:
///
/// ```
/// dotfile guard → precompressed siblings → small-file cache → files → image cache → network
/// ```
///
/// Each element is present only when its option asks for it (the guard unless `dotfiles`, the
/// image cache with an image-cache directory, the network with a fallback origin, the small-file
/// cache unless a ``ServeConfiguration/rootProvider`` is set). The resource
/// handlers themselves come from ``ServeHandlerFactories``; the file handler lists directories
/// with `list`.
public struct ServeHandlerChainBuilder: Sendable {
    /// The configuration to build from.
    public var configuration: ServeConfiguration
    /// Where the resource handlers come from. Default: ``ServeHandlerFactories/standard``.
    public var factories: ServeHandlerFactories

    /// Creates a builder.
    public init(configuration: ServeConfiguration, factories: ServeHandlerFactories = .standard) {
        self.configuration = configuration
        self.factories = factories
    }

    /// Builds the chain.
    ///
    /// - Throws: ``ServeError`` when the root (or what ``ServeConfiguration/rootProvider`` returns
    ///   now) is not a directory, the provider fails, or an option needs a handler the factories do
    ///   not provide.
    public func build() throws -> SchemeHandlerChain {
        let resolver: ServePathResolver?
        if let provider = configuration.rootProvider {
            // A dynamic root: check it once now; the small-file cache is bypassed (see rootProvider).
            let current: URL
            do { current = try provider() } catch { throw ServeError.invalidOption("\(error)") }
            guard ServePathResolver(root: current) != nil else {
                throw ServeError.notADirectory(current.path(percentEncoded: false))
            }
            resolver = nil
        } else {
            guard let fixed = ServePathResolver(root: configuration.root) else {
                throw ServeError.notADirectory(configuration.root.path(percentEncoded: false))
            }
            resolver = fixed
        }
        let files = try factories.files(
            .init(
                root: configuration.root,
                rootProvider: configuration.rootProvider,
                spa: configuration.spa,
                dotfiles: configuration.dotfiles,
                listDirectories: configuration.listDirectories
            )
        )
        var handlers: [any SchemeHandler] = []
        if !configuration.dotfiles { handlers.append(DotfileGuard()) }
        if configuration.gzip { handlers.append(PrecompressedSiblingHandler(files: files)) }
        if let resolver, configuration.smallFileCacheLimit > 0 {
            handlers.append(
                SmallFileCacheHandler(
                    files: files,
                    resolver: resolver,
                    limit: configuration.smallFileCacheLimit,
                    capacity: configuration.smallFileCacheCapacity
                )
            )
        } else {
            handlers.append(files)
        }
        var remote: (any SchemeHandler)?
        if let origin = configuration.fallbackOrigin {
            guard let network = factories.network else { throw ServeError.unavailable("--fallback") }
            remote = try network(origin)
        }
        if let directory = configuration.imageCacheDirectory {
            guard let imageCache = factories.imageCache else { throw ServeError.unavailable("--image-cache") }
            remote = try imageCache(directory, remote)
        }
        if let remote { handlers.append(remote) }
        return SchemeHandlerChain(handlers)
    }

    /// Builds a registry with the chain registered for the configuration's scheme and host.
    public func buildRegistry() throws -> SchemeRegistry {
        let registry = SchemeRegistry()
        do {
            try registry.register(try build(), for: configuration.scheme)
        } catch let error as SchemeRegistryError {
            throw ServeError.invalidOption("invalid scheme '\(configuration.scheme)': \(error)")
        }
        return registry
    }
}
