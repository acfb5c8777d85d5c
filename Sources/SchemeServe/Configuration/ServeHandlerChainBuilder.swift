// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    package import SchemeKit

    /// Builds the handler chain a ``ServeConfiguration`` describes:
    ///
    /// ```
    /// files → image cache → network
    /// ```
    ///
    /// With `--spa` and a fallback origin, the single-page fallback follows the network: a page
    /// navigation the origin answers `404` gets the index file (``SinglePageHandOff``).
    ///
    /// The file handler comes first and owns everything about files: dotfiles (404 unless
    /// `dotfiles`), precompressed `.br`/`.gz` siblings (with `gzip`), the small-file body cache
    /// (``ServeConfiguration/smallFileCacheLimit``), listings (with `list`) and traversal safety, all
    /// through one path decoder and one resolver. The image cache is present with an image-cache
    /// directory, the network with a fallback origin. The resource handlers themselves come from
    /// ``ServeHandlerFactories``. ``ServeConfiguration/headerRules`` are not part of the chain:
    /// ``SchemeServer`` applies them to every response after its own fields, so they can set or
    /// remove those too.
    package struct ServeHandlerChainBuilder: Sendable {
        /// The configuration to build from.
        package var configuration: ServeConfiguration
        /// Where the resource handlers come from. Default: ``ServeHandlerFactories/standard``.
        package var factories: ServeHandlerFactories

        /// Creates a builder.
        package init(configuration: ServeConfiguration, factories: ServeHandlerFactories = .standard) {
            self.configuration = configuration
            self.factories = factories
        }

        /// Builds the chain.
        ///
        /// - Throws: ``ServeError`` when the root (or what ``ServeConfiguration/rootProvider`` returns
        ///   now) is not a directory, the provider fails, or an option needs a handler the factories do
        ///   not provide.
        package func build() throws -> SchemeHandlerChain {
            let root: URL
            if let provider = configuration.rootProvider {
                // A dynamic root: check what it returns now.
                do { root = try provider() } catch { throw ServeError.invalidOption("\(error)") }
            } else {
                root = configuration.root
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.path(percentEncoded: false), isDirectory: &isDirectory),
                isDirectory.boolValue
            else {
                throw ServeError.notADirectory(root.path(percentEncoded: false))
            }
            let cacheLimit = configuration.smallFileCacheLimit
            // With live reload the server puts its script into HTML before it gzips (the response
            // plan); a body the file handler gzipped itself, or a precompressed sibling, would go
            // out without it.
            let filesCompress = configuration.gzip && !configuration.watch
            // With an origin, the single-page fallback comes after it: the origin answers every
            // path it has, then a navigation it lacks gets the index file.
            let spaAfterOrigin = configuration.spa && configuration.fallbackOrigin != nil
            var fileOptions = ServeHandlerFactories.FileOptions(
                root: configuration.root,
                rootProvider: configuration.rootProvider,
                spa: configuration.spa && !spaAfterOrigin,
                dotfiles: configuration.dotfiles,
                symlinks: configuration.symlinks,
                listDirectories: configuration.listDirectories,
                precompressed: filesCompress,
                bodyCache: cacheLimit > 0 && configuration.smallFileCacheCapacity > 0
                    ? LocalFileHandler.BodyCache(
                        maxFileSize: cacheLimit, totalCostLimit: configuration.smallFileCacheCapacity)
                    : nil,
                encoders: filesCompress ? [GzipContentEncoder()] : []
            )
            let files = try factories.files(fileOptions)
            var handlers: [any SchemeHandler] = [files]
            var remote: (any SchemeHandler)?
            if let origin = configuration.fallbackOrigin {
                guard let network = factories.network else { throw ServeError.unavailable("--fallback") }
                remote = try network(.init(origin: origin, forwarding: configuration.fallbackForwarding))
            }
            if let directory = configuration.imageCacheDirectory {
                guard let imageCache = factories.imageCache else { throw ServeError.unavailable("--image-cache") }
                remote = try imageCache(directory, remote)
            }
            if let remote {
                if spaAfterOrigin {
                    handlers.append(SinglePageHandOff(wrapped: remote))
                    fileOptions.spa = true
                    handlers.append(try factories.files(fileOptions))
                } else {
                    handlers.append(remote)
                }
            }
            return SchemeHandlerChain(handlers)
        }

        /// Builds a registry with the chain registered for the configuration's scheme and host.
        package func buildRegistry() throws -> SchemeRegistry {
            let registry = SchemeRegistry()
            do {
                try registry.register(try build(), for: configuration.scheme)
            } catch let error as SchemeRegistryError {
                throw ServeError.invalidOption("invalid scheme '\(configuration.scheme)': \(error)")
            }
            return registry
        }
    }
#endif
