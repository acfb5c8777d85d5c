// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import ArgumentParser
    import Foundation
    import HTTPTypes
    import Logging
    import SchemeKit
    import SchemeKitPackages
    import SchemeKitTesting
    import SchemeServe

    /// `schemeserve serve <directory>`: the dev server.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Serve a directory (or a package store's active version) as <scheme>://<app-host>/ at http://<bind>:<port>/.",
            usage: """
                schemeserve [serve] <directory> [<options>]
                schemeserve [serve] --store <store> [<options>]
                """,
            discussion: """
                Every request goes through SchemeKit's handler chain, as in the app's web view: same \
                files, MIME types, ranges, validators and fallbacks. The first line on standard output is \
                "Serving <dir> as <scheme>://<host>/ at http://<bind>:<port>/" (with the real port; \
                "Serving package store <dir> as …" with --store).

                Security defaults: loopback only, Host header checked, no CORS, no dotfiles, no listing.

                With --store <dir> instead of a directory, the store's active version is served and \
                looked up again for every request, so `schemeserve package install` or `rollback` takes \
                effect on the next request without a restart (--watch is refused \
                then). Give exactly one of <directory> and --store.

                Errors are one line on standard error, "schemeserve: error: <reason>", with exit code 64 \
                for a usage error (bad option or value, missing directory or store) and 1 for a failure \
                at run time (the port is in use).
                """
        )

        @Argument(help: "The directory to serve (or use --store).")
        var directory: String?

        @Option(help: "Serve the active version of this package store instead of a directory.")
        var store: String?

        @Option(help: "The scheme requests are translated to.")
        var scheme = "app"

        @Option(name: .customLong("app-host"), help: "The host of the translated requests (<scheme>://<app-host>/).")
        var appHost = "localhost"

        @Option(help: "The IP address to listen on. Anything but loopback prints a warning once listening.")
        var bind = "127.0.0.1"

        // A string, and read unconditionally, so that `--port -1` is reported as a bad port rather
        // than as a missing value followed by an unknown option.
        @Option(parsing: .unconditional, help: "The TCP port, 0 to 65535; 0 picks a free one.")
        var port = "8080"

        @Option(
            help:
                "An http(s) origin (https://origin.example) that answers paths no local file matches, and the page's POST, PUT, PATCH and DELETE requests with their bodies (up to 16 MiB; more is answered 413)."
        )
        var fallback: String?

        @Option(
            help: ArgumentHelp(
                "Serve a recorded site offline from this HAR file (or Playwright's .har.zip, unzipped into a temporary directory): a request is matched by path and query against the HAR's page origin (that of its first page's first entry), ahead of the directory; what the HAR lacks goes on to the directory and --fallback.",
                valueName: "file"))
        var har: String?

        @Option(
            name: .customLong("record-har"),
            help: ArgumentHelp(
                "Record every exchange with the --fallback origin into this HAR file (rewritten after each one, bodies over 1 MiB beside it), with the URLs the browser used, http://<bind>:<port>/…, so that Playwright's route_from_har replays it. Needs --fallback.",
                valueName: "file"))
        var recordHar: String?

        @Option(
            name: .customLong("forward-header"),
            help: ArgumentHelp(
                "Send this request header to the --fallback origin (repeatable). Default: the browser's Cookie, Authorization, Forwarded, X-Forwarded-* and X-Real-IP are not sent; hop-by-hop fields never are.",
                valueName: "name"))
        var forwardHeaders: [String] = []

        @Flag(
            name: .customLong("pass-set-cookie"),
            help:
                "Pass the --fallback origin's Set-Cookie to the page. Default: dropped, like its Access-Control-* fields (--cors makes CORS the server's own)."
        )
        var passSetCookie = false

        @Flag(
            help:
                "Single-page app: a page navigation that matches nothing (Sec-Fetch-Mode: navigate, or an Accept preferring text/html) gets /index.html, whatever its last segment looks like (/v1.2 too); requests for assets still get 404."
        )
        var spa = false

        @Option(name: .customLong("image-cache"), help: "An image cache directory, in front of --fallback.")
        var imageCache: String?

        @Option(
            name: .customLong("cors"),
            help:
                "Allow CORS from exactly this origin (repeatable): its requests get Access-Control-Allow-Origin, and its preflights (OPTIONS) a 204 allowing GET and HEAD with the header fields asked for. Default: no CORS headers."
        )
        var cors: [String] = []

        @Option(
            name: .customLong("allowed-host"), help: "Also answer this Host name (repeatable; *.name for subdomains).")
        var allowedHosts: [String] = []

        @Option(
            name: .customLong("header"),
            help: ArgumentHelp(
                "Set a response header on paths matching a glob (repeatable): 'PATTERN: Name: value', such as '/**: Cross-Origin-Opener-Policy: same-origin' or '/*.js: Cache-Control: max-age=60'; an empty value removes the header. Applies to every response after the server's own fields, so it can also set or remove X-Content-Type-Options, Cross-Origin-Resource-Policy, the CORS fields or Vary; Content-Length, Transfer-Encoding, Content-Encoding, Content-Range, Connection, Keep-Alive, Upgrade, TE, Trailer and Date are refused. Patterns match the normalised path (//x is /x).",
                valueName: "rule"))
        var headers: [String] = []

        @Flag(help: "Serve dotfiles and dot-directories (.env, .git/). Default: 404.")
        var dotfiles = false

        @Option(
            help: ArgumentHelp(
                "Symbolic links under the directory: follow (to any target, as nginx and Caddy do: Debian's Sphinx docs link _static/jquery.js into /usr/share/javascript), within-root (only to a target inside the directory), or refuse (none). A link not followed is answered 403 with a body naming the policy. A URL never leads out by '..' under any policy.",
                valueName: "follow|within-root|refuse"))
        var symlinks = LocalFileHandler.SymlinkPolicy.followWithinRoot.rawValue

        @Flag(help: "List directories that have no index.html. Default: 404.")
        var list = false

        @Flag(help: "Live reload: watch the directory and reload open pages when a file changes.")
        var watch = false

        @Option(name: .customLong("log-format"), help: "Log format on standard error: text or json.")
        var logFormat: LogFormat = .text

        @Flag(name: .customLong("no-access-log"), help: "Do not log one line per request.")
        var noAccessLog = false

        @Flag(
            name: .customLong("no-gzip"),
            help: "Send every body uncompressed: no gzip on the fly, and no precompressed .br/.gz siblings.")
        var noGzip = false

        @Option(
            name: .customLong("event-loops"),
            help: """
                How many threads accept and answer connections. Default: one per core the process \
                may run on (its CPU affinity and cgroup limits).
                """)
        var eventLoops: Int?

        @Option(
            name: .customLong("header-timeout"),
            help: "Close a connection that has not sent a complete request head this many seconds after opening.")
        var headerTimeout: Double = 30

        @Option(
            name: .customLong("idle-timeout"),
            help:
                "Close a keep-alive connection that has not sent the next complete request head this many seconds after a response."
        )
        var idleTimeout: Double = 30

        func validate() throws {
            switch (directory, store) {
            case (nil, nil): throw ValidationError("give the directory to serve or --store <dir>")
            case (.some, .some): throw ValidationError("give either a directory or --store, not both")
            case (.some(let directory), nil):
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory),
                    isDirectory.boolValue
                else {
                    throw ValidationError(
                        "not a directory: \(directory) (give the directory to serve, or --store <store>)")
                }
            case (nil, .some(let store)):
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: store, isDirectory: &isDirectory), isDirectory.boolValue
                else {
                    throw ValidationError(StoreOptions.missingStoreMessage(store))
                }
                if watch { throw ValidationError("--watch cannot be combined with --store") }
            }
            guard portNumber != nil else {
                throw ValidationError("invalid --port '\(port)': give a TCP port from 0 to 65535 (0 picks a free one)")
            }
            if let problem = BindAddress.problem(with: bind) { throw ValidationError(problem) }
            if let fallback {
                guard let url = URL(string: fallback), let scheme = url.scheme?.lowercased(),
                    ["http", "https"].contains(scheme),
                    url.host() != nil
                else {
                    throw ValidationError(
                        "invalid --fallback '\(fallback)': give an http(s) origin such as https://origin.example")
                }
            }
            if let har, !FileManager.default.isReadableFile(atPath: har) {
                throw ValidationError("no such file: --har \(har) (give a HAR file, or Playwright's .har.zip)")
            }
            if let recordHar {
                guard fallback != nil else {
                    throw ValidationError(
                        "--record-har records what --fallback fetches: give --fallback <origin> too")
                }
                var isDirectory: ObjCBool = false
                let parent = URL(filePath: recordHar).deletingLastPathComponent().path(percentEncoded: false)
                guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue
                else {
                    throw ValidationError("invalid --record-har '\(recordHar)': no directory \(parent)")
                }
            }
            _ = try fallbackForwarding()
            if let eventLoops, !(1...256).contains(eventLoops) {
                throw ValidationError("invalid --event-loops '\(eventLoops)': give a number of threads from 1 to 256")
            }
            for origin in cors where origin == "*" || !(origin.hasPrefix("http://") || origin.hasPrefix("https://")) {
                throw ValidationError("invalid --cors '\(origin)': give an exact origin such as https://app.example")
            }
            _ = try headerRules()
            _ = try symlinkPolicy()
            for (name, value) in [("--header-timeout", headerTimeout), ("--idle-timeout", idleTimeout)]
            where !(value > 0 && value <= 86_400) {
                throw ValidationError("\(name) must be a number of seconds above 0 (and at most a day)")
            }
        }

        /// `--symlinks`, parsed.
        ///
        /// - Throws: `ValidationError` naming the policies for any other value.
        func symlinkPolicy() throws -> LocalFileHandler.SymlinkPolicy {
            guard let policy = LocalFileHandler.SymlinkPolicy(rawValue: symlinks) else {
                throw ValidationError("invalid --symlinks '\(symlinks)': give follow, within-root or refuse")
            }
            return policy
        }

        /// The `--header` rules, parsed.
        ///
        /// - Throws: `ValidationError` naming the first rule that does not parse and why.
        func headerRules() throws -> [HeaderRule] {
            try headers.map { text in
                let rule: HeaderRule
                do throws(HeaderRuleSyntaxError) {
                    rule = try HeaderRule(parsing: text)
                } catch {
                    throw ValidationError(
                        "invalid --header '\(text)': \(error.description); give 'PATTERN: Name: value' such as '/**: Cross-Origin-Opener-Policy: same-origin'"
                    )
                }
                guard !ServeConfiguration.serverOwnedFields.contains(rule.name) else {
                    throw ValidationError(
                        "invalid --header '\(text)': \(rule.name) is set by the server from the message itself and cannot be changed"
                    )
                }
                return rule
            }
        }

        /// `--forward-header` and `--pass-set-cookie`, as the fallback's forwarding policy.
        ///
        /// - Throws: `ValidationError` for a name that is not a field name, one that is never
        ///   forwarded (hop-by-hop, or set by the HTTP client), or either option without `--fallback`.
        func fallbackForwarding() throws -> NetworkForwardingPolicy {
            if fallback == nil, !forwardHeaders.isEmpty || passSetCookie {
                let option = forwardHeaders.isEmpty ? "--pass-set-cookie" : "--forward-header"
                throw ValidationError("\(option) needs --fallback <origin>")
            }
            var policy = NetworkForwardingPolicy()
            for text in forwardHeaders {
                guard let name = HTTPField.Name(text) else {
                    throw ValidationError(
                        "invalid --forward-header '\(text)': give a header field name such as Authorization")
                }
                if let reason = NetworkForwardingPolicy.neverForwardedReason(requestField: name) {
                    throw ValidationError("invalid --forward-header '\(text)': \(reason)")
                }
                policy.forwardedRequestFields.insert(name)
            }
            if passSetCookie { policy.passedResponseFields.insert(.setCookie) }
            return policy
        }

        /// The access log's logger: the same lines on standard error, written a batch at a time.
        func accessLogger(format: LogFormat) -> Logger {
            let buffer = StandardErrorBuffer()
            var logger = Logger(label: "schemeserve") { label in
                StandardErrorLogHandler(label: label, format: format, buffer: buffer)
            }
            logger.logLevel = .info
            return logger
        }

        /// `port` as a number, when it is one from 0 to 65535.
        var portNumber: Int? {
            guard let number = Int(port), (0...65535).contains(number) else { return nil }
            return number
        }

        func run() async throws {
            let format = logFormat
            LoggingSystem.bootstrap { label in StandardErrorLogHandler(label: label, format: format) }
            var logger = Logger(label: "schemeserve")
            logger.logLevel = .info

            var configuration: ServeConfiguration
            let shownRoot: String
            if let store {
                let packages = try await PackageStore(directory: StoreOptions.absolute(store))
                _ = try packages.activeRoot()  // fails clearly now when nothing is installed
                configuration = ServeConfiguration(root: packages.directory)
                configuration.rootProvider = packages.activeRoot
                shownRoot = "package store \(store)"
            } else {
                let directory = self.directory ?? "."
                configuration = ServeConfiguration(root: URL(filePath: directory, directoryHint: .isDirectory))
                shownRoot = directory
            }
            configuration.scheme = scheme
            configuration.appHost = appHost
            configuration.bindAddress = bind
            configuration.port = portNumber ?? 0
            configuration.fallbackOrigin = fallback.flatMap { URL(string: $0) }
            configuration.fallbackForwarding = try fallbackForwarding()
            configuration.spa = spa
            configuration.imageCacheDirectory = imageCache.map { URL(filePath: $0, directoryHint: .isDirectory) }
            configuration.corsOrigins = cors
            configuration.allowedHosts = allowedHosts
            configuration.dotfiles = dotfiles
            configuration.symlinks = try symlinkPolicy()
            configuration.listDirectories = list
            configuration.watch = watch
            configuration.gzip = !noGzip
            configuration.eventLoopCount = eventLoops
            configuration.headerRules = try headerRules()
            configuration.headTimeout = .milliseconds(Int64(headerTimeout * 1000))
            configuration.idleTimeout = .milliseconds(Int64(idleTimeout * 1000))

            let urlHost = bind.contains(":") ? "[\(bind)]" : bind
            let listeningPort = Locked(0)
            var factories = ServeHandlerFactories.standard
            let replay = try harReplay(into: &factories)
            defer { replay?.removeTemporaryFiles() }
            let recording = recordHAR(into: &factories) { request in
                HARRecordedURL.origin(URL(string: "http://\(urlHost):\(listeningPort.withLock { $0 })")!)
                    .url(for: request)
            }

            let server = try SchemeServer(
                configuration: configuration,
                factories: factories,
                logger: logger,
                accessLogger: noAccessLog ? .some(nil) : .some(accessLogger(format: format))
            )
            let scheme = self.scheme.lowercased()
            let host = appHost.lowercased()
            try await server.run { address in
                listeningPort.withLock { $0 = address.port }
                let line = "Serving \(shownRoot) as \(scheme)://\(host)/ at http://\(urlHost):\(address.port)/\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            }
            if let recording = recording?() {
                // A client may have its response before the recorder has written it.
                let deadline = ContinuousClock.now + .seconds(5)
                while recording.inFlight() > 0, ContinuousClock.now < deadline {
                    try? await Task.sleep(for: .milliseconds(10))
                }
                if let error = recording.lastError() {
                    logger.warning("--record-har: an exchange was not recorded: \(error)")
                }
            }
            logger.info("stopped")
        }

        /// With `--har`: puts a `HARReplayHandler` that passes on a miss before the file handler,
        /// matching requests against the HAR's page origin. Returns the HAR input (its temporary
        /// directory, for a `.har.zip`, is removed when the server stops).
        ///
        /// - Throws: ``CommandLineFailure`` (a usage error) when the HAR cannot be read.
        private func harReplay(into factories: inout ServeHandlerFactories) throws -> HARFileInput? {
            guard let har else { return nil }
            let input: HARFileInput
            let replay: HARReplayHandler
            do {
                input = try HARFileInput(URL(filePath: har)) { try ArchiveExtractor.extract(zip: $0, into: $1) }
                replay = try HARReplayHandler(
                    contentsOf: input.harFile,
                    configuration: .init(matching: HARMatching(origin: .page), whenMissing: .pass, name: "har"))
            } catch {
                throw CommandLineFailure.usage("invalid --har '\(har)': \(error)")
            }
            let files = factories.files
            factories.files = { options in SchemeHandlerChain(replay, try files(options)) }
            return input
        }

        /// How to ask a `--record-har` recorder how it is doing.
        struct RecordingProbe: Sendable {
            /// Exchanges still being recorded.
            let inFlight: @Sendable () -> Int
            /// The last error met while writing the HAR file.
            let lastError: @Sendable () -> HARError?
        }

        /// With `--record-har`: wraps the `--fallback` handler in a `HARRecorder` writing the URLs
        /// `url` gives, and writes the (empty) file at once, so that a path that cannot be written
        /// fails now. Returns how to ask the recorder how it is doing, once the server is built.
        private func recordHAR(
            into factories: inout ServeHandlerFactories, url: @escaping @Sendable (SchemeRequest) -> String
        ) -> (@Sendable () -> RecordingProbe?)? {
            guard let recordHar, let network = factories.network else { return nil }
            let file = URL(filePath: recordHar)
            let probe = Locked<RecordingProbe?>(nil)
            factories.network = { origin in
                let (recorder, recorderProbe) = try Self.recording(network(origin), into: file, url: url)
                probe.withLock { $0 = recorderProbe }
                return recorder
            }
            return { probe.withLock { $0 } }
        }

        /// `handler` wrapped in a `HARRecorder` whose file is written at once, and its probe.
        private static func recording(
            _ handler: some SchemeHandler, into file: URL, url: @escaping @Sendable (SchemeRequest) -> String
        ) throws -> (any SchemeHandler, RecordingProbe) {
            let recorder = CountingHandler(
                HARRecorder(handler, to: file, options: HARRecordingOptions(url: .custom(url))))
            try recorder.wrapped.write()
            return (
                recorder, RecordingProbe(inFlight: { recorder.inFlight }, lastError: { recorder.wrapped.lastError })
            )
        }
    }

    /// The `--log-format` values.
    enum LogFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }
#endif
