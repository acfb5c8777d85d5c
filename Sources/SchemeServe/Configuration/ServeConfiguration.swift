// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    public import Foundation
    package import HTTPTypes
    public import SchemeKit

    /// Everything `schemeserve` needs to serve a directory through a scheme: what to serve, where
    /// to listen, and which security defaults to relax.
    ///
    /// Every default is the safe one: loopback only, no CORS, no dotfiles, no listing, no live
    /// reload.
    ///
    /// ```swift
    /// var configuration = ServeConfiguration(root: URL(filePath: "Samples/app"))
    /// configuration.port = 0          // any free port
    /// let server = try SchemeServer(configuration: configuration)
    /// ```
    public struct ServeConfiguration: Sendable {
        /// The directory served at the scheme's root (with ``rootProvider``, only the name shown in
        /// messages, such as a package store's directory).
        public var root: URL
        /// Resolves the served directory once per request instead of ``root``, or `nil`.
        ///
        /// Set it to serve a directory that can change while the server runs, such as the active
        /// version of a package store (`PackageStore.rootProvider`): each request is served wholly from
        /// the directory returned when it starts, so a switch is picked up by the next request without
        /// a restart (the small-file cache is keyed by each opened file's identity, so it never serves
        /// a file of the old directory). ``watch`` is not supported with a provider (the server
        /// refuses to start). An error thrown by the provider fails the request.
        /// Default: `nil`, serve ``root``.
        public var rootProvider: (@Sendable () throws -> URL)?
        /// The scheme the requests are translated to. Default: `app`.
        public var scheme: String
        /// The host of the translated requests (`app://localhost/…`). Default: `localhost`.
        public var appHost: String
        /// The address to listen on. Default: `127.0.0.1` (loopback only).
        public var bindAddress: String
        /// The TCP port; `0` picks a free one. Default: 8080.
        public var port: Int
        /// The origin unresolved paths are fetched from (`https://origin.example`), or `nil`.
        public var fallbackOrigin: URL?
        /// Which header fields cross the fallback: `--forward-header NAME` adds to
        /// `forwardedRequestFields`, `--pass-set-cookie` adds `Set-Cookie` to
        /// `passedResponseFields`. Default: nothing named, so the browser's `Cookie`,
        /// `Authorization`, `Forwarded`, `X-Forwarded-*` and `X-Real-IP` do not reach the origin, and
        /// its `Set-Cookie` and `Access-Control-*` do not reach the page (with ``corsOrigins`` the
        /// CORS fields are the server's own).
        public var fallbackForwarding: NetworkForwardingPolicy
        /// Whether a path with no extension that matches no file is answered with `/index.html`.
        /// Default: `false`.
        public var spa: Bool
        /// The image cache directory, or `nil` for no image cache. Default: `nil`.
        public var imageCacheDirectory: URL?
        /// The origins allowed by CORS; each is echoed back exactly when it matches the request's
        /// `Origin`, with `Access-Control-Expose-Headers: Accept-Ranges, Content-Range, ETag`. A
        /// preflight (`OPTIONS` with `Access-Control-Request-Method`) from one of them gets `204`
        /// allowing GET and HEAD and the header fields it asked for, for 10 minutes. Default: none
        /// (no CORS headers at all; a preflight gets 405).
        public var corsOrigins: [String]
        /// Host names answered besides `localhost`, `*.localhost`, `127.0.0.1` and `[::1]`.
        /// A name starting with `*.` allows its subdomains. Default: none.
        public var allowedHosts: [String]
        /// Whether dotfiles and dot-directories are served. Default: `false` (404).
        public var dotfiles: Bool
        /// Which symbolic links under the root are followed (`--symlinks`). Default:
        /// `LocalFileHandler/SymlinkPolicy/followWithinRoot`; a link not followed is answered 403
        /// with a body naming the policy, and the access log says why.
        public var symlinks: LocalFileHandler.SymlinkPolicy
        /// Whether directories without an `index.html` are listed. Default: `false` (404).
        public var listDirectories: Bool
        /// Whether live reload is on. Default: `false`.
        public var watch: Bool
        /// How often the watcher compares modification times where it polls (systems without
        /// `inotify`; on Linux changes are reported as they happen). Default: 300 ms.
        package var watchInterval: Duration
        /// Whether compressible responses are gzipped on the fly for clients that accept it, and
        /// precompressed `name.br` / `name.gz` siblings served in place of `name`. Default: `true`.
        public var gzip: Bool
        /// How long in-flight responses may run after a shutdown signal. Default: 10 s.
        public var shutdownGracePeriod: Duration
        /// How long a new connection has to send a complete request head before it is closed
        /// (nginx's `client_header_timeout`). Default: 30 s.
        public var headTimeout: Duration
        /// How long a keep-alive connection may wait between the end of a response and the complete
        /// head of the next request before it is closed (nginx's `keepalive_timeout`; a client
        /// dripping a head byte by byte is closed too). Default: 30 s.
        public var idleTimeout: Duration
        /// Files up to this size have their bytes kept in the file handler's in-memory body cache
        /// (keyed by device, inode, size and modification time of the opened file, after
        /// preconditions and ranges are evaluated); `0` disables it. Default: 256 KiB.
        ///
        /// A cached file's repeated requests are answered from memory ahead of HTTP decoding; a
        /// larger file is sent with `sendfile` through the whole handler chain on every request.
        /// Up to about 512 KiB the first is the faster (`Benchmarks/serve.sh`), so the default
        /// covers a web app's scripts, stylesheets and images.
        package var smallFileCacheLimit: Int
        /// The most bytes the small-file cache holds. Default: 32 MiB.
        package var smallFileCacheCapacity: Int
        /// How many event loops (threads) accept and answer connections, or `nil` for one per
        /// core the process may run on: SwiftNIO's count (the machine's cores within the cgroup's
        /// `cpuset` and CPU quota) and, on Linux, at most the CPUs of the process's affinity mask
        /// (`taskset -c 0 schemeserve …` runs one loop). Default: `nil`.
        public var eventLoopCount: Int?
        /// Response headers set or removed by path (`--header 'PATTERN: Name: value'`), applied in
        /// order (a later rule for the same field wins) to every response, the server's own answers
        /// (400, 403, 404, 502) included, and after the server's own fields, so a rule can also set or
        /// remove `X-Content-Type-Options`, `Cross-Origin-Resource-Policy`, the CORS fields or `Vary`.
        /// Patterns match the request's normalised path, the one the file handler serves
        /// (`//index.html` and `/%69ndex.html` are `/index.html`). Fields that frame the message
        /// (`Content-Length`, `Transfer-Encoding`, `Content-Encoding`, `Content-Range`, `Connection`,
        /// `Keep-Alive`, `Upgrade`, `TE`, `Trailer`, `Date`) cannot be set or removed: ``SchemeServer``
        /// refuses such a rule when it is created. Default: none.
        public var headerRules: [HeaderRule]

        /// Creates a configuration with the safe defaults.
        ///
        /// - Parameter root: The directory to serve.
        public init(root: URL) {
            self.root = root
            self.rootProvider = nil
            self.scheme = "app"
            self.appHost = "localhost"
            self.bindAddress = "127.0.0.1"
            self.port = 8080
            self.fallbackOrigin = nil
            self.fallbackForwarding = NetworkForwardingPolicy()
            self.spa = false
            self.imageCacheDirectory = nil
            self.corsOrigins = []
            self.allowedHosts = []
            self.dotfiles = false
            self.symlinks = .followWithinRoot
            self.listDirectories = false
            self.watch = false
            self.watchInterval = .milliseconds(300)
            self.gzip = true
            self.shutdownGracePeriod = .seconds(10)
            self.headTimeout = .seconds(30)
            self.idleTimeout = .seconds(30)
            self.smallFileCacheLimit = 256 << 10
            self.smallFileCacheCapacity = 32 << 20
            self.eventLoopCount = nil
            self.headerRules = []
        }

        /// Whether ``bindAddress`` is a loopback address (`127.0.0.0/8`, `::1`, `localhost`).
        package var bindsLoopbackOnly: Bool {
            let address = bindAddress.lowercased()
            return address == "localhost" || address == "::1" || address == "[::1]" || address.hasPrefix("127.")
        }
    }

    extension ServeConfiguration {
        /// Fields a `--header` rule may not set or remove: they describe how this message is framed
        /// and encoded (`Content-Length`, `Transfer-Encoding`, `Content-Encoding`, `Content-Range`),
        /// manage the connection (`Connection`, `Keep-Alive`, `Upgrade`, `TE`, `Trailer`) or are the
        /// origin's clock (`Date`). Every other field the server adds can be overridden.
        package static let serverOwnedFields: Set<HTTPField.Name> = [
            .contentLength, .transferEncoding, .contentEncoding, .contentRange, .connection,
            HTTPField.Name("Keep-Alive")!, .upgrade, .te, .trailer, .date,
        ]

        /// Throws a ``ServeError`` (a usage error) naming the first header rule that touches one of
        /// ``serverOwnedFields``.
        func validateHeaderRules() throws {
            for rule in headerRules where Self.serverOwnedFields.contains(rule.name) {
                throw ServeError.invalidOption(
                    "--header '\(rule)': \(rule.name) is set by the server from the message itself and cannot be changed"
                )
            }
        }
    }
#endif
