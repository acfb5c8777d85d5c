public import Foundation

extension LocalFileHandler {
    /// Where the served directory is.
    public struct Root: Sendable {
        let resolve: @Sendable () throws -> URL

        /// A fixed directory.
        public static func directory(_ url: URL) -> Root {
            Root { url }
        }

        /// A directory chosen per request: `provider` is called once at the start of each request.
        ///
        /// Use it to serve "the active version" of a store that swaps versions: a request that has
        /// opened its file keeps reading that file even if the provider returns another directory
        /// meanwhile. An error thrown by `provider` fails the request.
        public static func dynamic(_ provider: @escaping @Sendable () throws -> URL) -> Root {
            Root(resolve: provider)
        }
    }

    /// What to do with symbolic links met under the root.
    public enum SymlinkPolicy: Sendable, Hashable {
        /// Follow a link only when its fully resolved target lies inside the root's real path;
        /// answer 403 otherwise. The default.
        case followWithinRoot
        /// Answer 403 for any path that goes through a symbolic link.
        case refuse
    }

    /// What to do with hidden files: paths with a component that starts with a dot
    /// (`.git/config`, `.env`, `..foo`).
    public enum HiddenFilePolicy: Sendable, Hashable {
        /// Answer 404 directly (never pass such a request to the next handler). The default.
        case deny
        /// Serve them like any other file.
        case allow
    }

    /// Where reads happen.
    public enum ReadMode: Sendable {
        /// `pread` on the calling task's thread, one bounded chunk at a time, yielding between
        /// chunks. The default: for a local disk and a warm page cache this costs a few microseconds
        /// per chunk and no thread hop.
        case inline
        /// `pread` on `queue` (one hop per chunk), for slow or network file systems where a read
        /// may block for long; the cooperative thread is free meanwhile.
        case dispatch(DispatchQueue)
    }

    /// How a ``LocalFileHandler`` maps requests to files and answers them. Every property has a
    /// documented default; only the root is required.
    public struct Configuration: Sendable {
        /// The directory served.
        public var root: Root
        /// Serve `root/<host>/…` instead of `root/…`. Default: `false`.
        public var usesHostSubdirectories: Bool
        /// The file served for a directory. Default: `index.html`; `nil` disables index files.
        public var indexFileName: String?
        /// Serve `/<indexFileName>` for an extensionless path that matches nothing (single-page
        /// apps with client-side routes). Default: `false`.
        public var singlePageFallback: Bool
        /// The `Cache-Control` value sent with files and 304s. Default: `no-cache` (always
        /// revalidate, which is cheap thanks to `ETag`/`Last-Modified`); `nil` sends none.
        ///
        /// Web views read it for custom schemes too: WebKit keeps a subresource of a non-HTTP
        /// scheme in its memory cache for the web process's life unless the response says
        /// `no-cache` or `no-store`. For files that never change within a version (an offline
        /// package), `"max-age=31536000, immutable"` lets warm page loads skip their requests; then
        /// empty the engine's memory cache when another version becomes active.
        public var cacheControl: String?
        /// Symbolic links. Default: ``SymlinkPolicy/followWithinRoot``.
        public var symlinks: SymlinkPolicy
        /// Hidden files. Default: ``HiddenFilePolicy/deny`` (404).
        public var hiddenFiles: HiddenFilePolicy
        /// Bytes read and written per chunk when streaming. Default: 64 KiB. Files no larger than
        /// this are read with a single `pread` and written with a single write.
        public var chunkSize: Int
        /// Answer a directory without an index file with an HTML listing (names HTML-escaped,
        /// hidden files omitted unless allowed). Default: `false` (the request is passed on).
        public var directoryListing: Bool
        /// Where reads happen. Default: ``ReadMode/inline``.
        public var readMode: ReadMode
        /// Limits against range amplification. Default: ``RangeRequest/Limits/init(maxRanges:allowsOverlappingRanges:)``
        /// with its defaults (16 ranges, no overlap).
        public var rangeLimits: RangeRequest.Limits

        /// Creates a configuration; see each property for its default.
        public init(
            root: Root,
            usesHostSubdirectories: Bool = false,
            indexFileName: String? = "index.html",
            singlePageFallback: Bool = false,
            cacheControl: String? = "no-cache",
            symlinks: SymlinkPolicy = .followWithinRoot,
            hiddenFiles: HiddenFilePolicy = .deny,
            chunkSize: Int = 64 * 1024,
            directoryListing: Bool = false,
            readMode: ReadMode = .inline,
            rangeLimits: RangeRequest.Limits = RangeRequest.Limits()
        ) {
            precondition(chunkSize > 0, "chunkSize must be positive")
            self.root = root
            self.usesHostSubdirectories = usesHostSubdirectories
            self.indexFileName = indexFileName
            self.singlePageFallback = singlePageFallback
            self.cacheControl = cacheControl
            self.symlinks = symlinks
            self.hiddenFiles = hiddenFiles
            self.chunkSize = chunkSize
            self.directoryListing = directoryListing
            self.readMode = readMode
            self.rangeLimits = rangeLimits
        }
    }
}
