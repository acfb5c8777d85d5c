public import Foundation

extension LocalFileHandler {
    /// Where the served directory is.
    public struct Root: Sendable {
        let resolve: @Sendable () throws -> URL
        /// A fixed directory's path, worked out once (`URL.path` is too slow for every request).
        let fixedPath: String?

        init(resolve: @escaping @Sendable () throws -> URL, fixedPath: String? = nil) {
            self.resolve = resolve
            self.fixedPath = fixedPath
        }

        /// A fixed directory.
        public static func directory(_ url: URL) -> Root {
            Root(resolve: { url }, fixedPath: url.path)
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
    ///
    /// A link is only ever met as a link in the served tree: a request's path cannot name `..`
    /// (`SafeRelativePath` refuses it, encoded or not), so under every policy a URL reaches
    /// nothing but the root's files and what the root's own links point to.
    ///
    /// A link the policy does not follow is answered `403` with a body that names the policy
    /// (never the link's target), and the response's ``SchemeResponse/refusalReason`` is
    /// ``LocalFileHandlerError/symlinkRefused(policy:)``. The raw value is the policy's name in
    /// those messages and on the command line (`--symlinks follow|within-root|refuse`).
    public enum SymlinkPolicy: String, Sendable, Hashable, CaseIterable {
        /// Follow a link to any target, inside the root or not, as nginx does by default
        /// (`disable_symlinks off`) and Caddy does: for trees that link to shared files, such as
        /// Debian's Sphinx documentation, whose `_static/jquery.js` links into
        /// `/usr/share/javascript`. The target must still be a regular file or a directory.
        case follow = "follow"
        /// Follow a link only when its fully resolved target lies inside the root's real path;
        /// answer 403 otherwise. The default.
        case followWithinRoot = "within-root"
        /// Answer 403 for any path that goes through a symbolic link.
        case refuse = "refuse"
    }

    /// What to do with hidden files: paths with a component that starts with a dot
    /// (`.git/config`, `.env`, `..foo`).
    public enum HiddenFilePolicy: Sendable, Hashable {
        /// Answer 404 directly (never pass such a request to the next handler). The default.
        case deny
        /// Serve them like any other file.
        case allow
    }

    /// What a request does when the root directory is unavailable: missing, not a directory, not
    /// readable, or a ``Root/dynamic(_:)`` provider that throws.
    public enum UnavailableRootPolicy: Sendable, Hashable {
        /// Fail the task: with ``LocalFileHandlerError/rootUnavailable(errno:)``, or with the
        /// provider's own error. The default: a wrong root is a configuration mistake and must not
        /// look like a missing file.
        case fail
        /// Pass the request to the next handler, as for a missing file. For roots that may
        /// legitimately not exist yet, such as a package store before its first install.
        case pass
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

    /// Limits of the in-memory body cache (``Configuration/bodyCache``).
    ///
    /// The cache keeps whole bodies of small files, keyed by what `fstat` says about the open file
    /// (device, inode, size, modification time in nanoseconds): a file changed on disk gets a new
    /// key at once, so a hit never serves stale bytes and needs no validation of its own. Lookups
    /// happen after the file is opened and after preconditions are evaluated, so `If-Match`,
    /// `If-None-Match`, ranges and HEAD behave exactly as without the cache; only the `pread` is
    /// saved. Entries are evicted least recently used first (``MemoryStorage``) and never expire
    /// otherwise (an entry for an old version of a file is simply never looked up again).
    public struct BodyCache: Sendable, Hashable {
        /// The largest file kept, in bytes. Default: 64 KiB.
        public var maxFileSize: Int
        /// The most bytes kept in all. Default: 32 MiB.
        public var totalCostLimit: Int
        /// The most files kept. Default: 4096.
        public var countLimit: Int

        /// Creates cache limits; see each property for its default.
        ///
        /// - Precondition: every limit is positive.
        public init(maxFileSize: Int = 64 << 10, totalCostLimit: Int = 32 << 20, countLimit: Int = 4096) {
            precondition(maxFileSize > 0 && totalCostLimit > 0 && countLimit > 0, "body cache limits must be positive")
            self.maxFileSize = maxFileSize
            self.totalCostLimit = totalCostLimit
            self.countLimit = countLimit
        }
    }

    /// A precompressed sibling a ``LocalFileHandler`` may serve in place of a file: `name.br` for
    /// `name` with `Content-Encoding: br`, for instance (``Configuration/precompressed``).
    ///
    /// An open set, like `HTTPRequest.Method`: use ``brotli`` and ``gzip``, or make your own.
    public struct PrecompressedEncoding: Sendable, Hashable {
        /// The content coding, as in `Accept-Encoding` and `Content-Encoding` (lowercase).
        public var contentCoding: String
        /// What is appended to the file name to find the sibling, such as `.br`.
        public var fileSuffix: String

        /// Creates an encoding.
        ///
        /// - Precondition: `fileSuffix` is not empty and contains no `/`.
        public init(contentCoding: String, fileSuffix: String) {
            precondition(!fileSuffix.isEmpty && !fileSuffix.contains("/"), "fileSuffix must be a plain name suffix")
            self.contentCoding = contentCoding.lowercased()
            self.fileSuffix = fileSuffix
        }

        /// Brotli: `name.br`, `Content-Encoding: br` ([RFC 7932](https://www.rfc-editor.org/rfc/rfc7932)).
        public static let brotli = PrecompressedEncoding(contentCoding: "br", fileSuffix: ".br")
        /// gzip: `name.gz`, `Content-Encoding: gzip` ([RFC 9110 §8.4.1.3](https://www.rfc-editor.org/rfc/rfc9110#section-8.4.1.3)).
        public static let gzip = PrecompressedEncoding(contentCoding: "gzip", fileSuffix: ".gz")
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
        /// Serve `/<indexFileName>` for a page navigation that matches nothing (single-page apps with
        /// client-side routes); ``navigationRule`` says what counts as one. Default: `false`.
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
        /// Bytes read and written per chunk when streaming; positive. Default: 64 KiB. Files no
        /// larger than this are read with a single `pread` and written with a single write.
        public var chunkSize: Int
        /// Answer a directory without an index file with an HTML listing (names HTML-escaped,
        /// hidden files omitted unless allowed). Default: `false` (the request is passed on).
        public var directoryListing: Bool
        /// How a directory asked for without its trailing slash (`/docs?x=1`) gets it, when it has
        /// an index file or a listing to show: its index page's relative links must resolve inside
        /// the directory, as after a web server's redirect (nginx, Apache's `DirectorySlash`).
        ///
        /// `true`: `301 Moved Permanently` to `/docs/?x=1`, for an engine that follows a scheme's
        /// redirects: `schemeserve` and the browsers (`headless-render` sets it on Chromium and
        /// Firefox). Default: `false`, for WebKitGTK and WKWebView, which follow no custom-scheme
        /// redirect (the page would get the 301 itself): a `200` HTML document that replaces its
        /// location with `/docs/?x=1` (the fragment kept), so the page ends at the slash URL. A
        /// `fetch()` of the slash-less URL gets that document, not the index.
        public var directorySlashRedirect: Bool
        /// Where reads happen. Default: ``ReadMode/inline``.
        public var readMode: ReadMode
        /// What a request does when the root is unavailable. Default: ``UnavailableRootPolicy/fail``.
        public var unavailableRoot: UnavailableRootPolicy
        /// Limits against range amplification. Default: ``RangeLimits/init(maxRanges:allowsOverlappingRanges:)``
        /// with its defaults (16 ranges, no overlap).
        public var rangeLimits: RangeLimits
        /// Keep the bodies of small files in memory, or `nil` for no cache. Default: `nil`.
        ///
        /// Off by default because a page cache already makes a small `pread` cost microseconds, a
        /// web view keeps its own memory cache, and a library should not hold megabytes nobody
        /// asked for. Turn it on for a server answering many requests per second (`schemeserve`
        /// does). See ``BodyCache``.
        public var bodyCache: BodyCache?
        /// Precompressed siblings to serve in place of a file, in order of preference, when the
        /// request accepts their coding and has no `Range`. Default: none.
        ///
        /// The sibling is looked up in the directory the file was found in, by the same resolver
        /// (opened with `O_NOFOLLOW`; a sibling that is a symbolic link is ignored), and only next
        /// to an existing file. Its response keeps the file's `Content-Type`, adds
        /// `Content-Encoding` and `Vary: Accept-Encoding`, and carries the sibling's own
        /// validators: `ETag` `"<size>-<mtime>-<coding>"`, distinct per encoding, and its
        /// `Last-Modified`. Preconditions are evaluated against them.
        public var precompressed: [PrecompressedEncoding]
        /// Content codings applied on the fly to compressible files whose whole body is in memory
        /// (kept by ``bodyCache`` or no larger than ``chunkSize``), in order of preference, when the
        /// request accepts them and has no `Range`. Default: none.
        ///
        /// A precompressed sibling wins over an on-the-fly coding. The encoded body is made once
        /// per file identity (device, inode, size, modification time) and kept in ``bodyCache``
        /// beside the file's bytes, counting towards its limits, so a repeated request costs what
        /// an identity hit costs. It is another representation of the same file: it carries the
        /// file's validator made weak (`W/"<size>-<mtime>"`, as nginx does: `If-None-Match` still
        /// matches it, `If-Range` never does), `Content-Encoding` and `Vary: Accept-Encoding`.
        /// Compressible means text, JSON, XML, SVG, JavaScript, wasm and fonts of at least 256 bytes.
        /// Larger files stream in the identity coding; an engine may compress the stream itself.
        public var encoders: [any SchemeContentEncoder]
        /// How ``singlePageFallback`` tells a page navigation (which gets the index file when
        /// nothing matches) from a request for an asset (which does not). Default:
        /// ``NavigationRule/byRequest``.
        public var navigationRule: NavigationRule

        /// Creates a configuration; see each property for its default.
        ///
        /// - Precondition: `chunkSize > 0`.
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
            directorySlashRedirect: Bool = false,
            readMode: ReadMode = .inline,
            rangeLimits: RangeLimits = RangeLimits(),
            unavailableRoot: UnavailableRootPolicy = .fail,
            bodyCache: BodyCache? = nil,
            precompressed: [PrecompressedEncoding] = [],
            encoders: [any SchemeContentEncoder] = [],
            navigationRule: NavigationRule = .byRequest
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
            self.directorySlashRedirect = directorySlashRedirect
            self.readMode = readMode
            self.rangeLimits = rangeLimits
            self.unavailableRoot = unavailableRoot
            self.bodyCache = bodyCache
            self.precompressed = precompressed
            self.encoders = encoders
            self.navigationRule = navigationRule
        }
    }

    /// How the single-page fallback (``Configuration/singlePageFallback``) decides that a request
    /// that matches no file is a page navigation, to be answered with the index file.
    public enum NavigationRule: Sendable, Hashable {
        /// By what the request says it is, as Vite's and webpack's dev servers decide: a navigation
        /// (`Sec-Fetch-Mode: navigate`), or, from a client that sends no `Sec-Fetch-Mode`, an
        /// `Accept` that lists `text/html` with a weight at least that of any other type — whatever
        /// the last path segment looks like (`/v1.2` included). Requests that say they are for
        /// something else (a script, an image, `fetch()` of JSON) get no fallback. A request with
        /// neither field falls back to ``extensionless``. The default.
        case byRequest
        /// By the path alone: a path whose last segment has no extension (the rule of older
        /// servers; `/v1.2` is then taken for a file).
        case extensionless
    }
}
