// The command needs an engine: it is built with the package trait `WebKitGTK`, `Chromium`,
// `Firefox` or several; without any the executable only says how to get one.
#if WebKitGTK || Chromium || Firefox
    import ArgumentParser
    import Dispatch
    import Foundation
    import SchemeKit
    import SchemeKitTesting

    import SchemeKitPackages

    /// `headless-render`: loads a directory through SchemeKit in a pooled headless engine view and
    /// reports the load time, every request, the console, an optional JavaScript result, snapshot
    /// and PDF.
    ///
    /// Exit codes: 0 rendered; 1 the page failed to load or `--eval` threw; 2 the engine did not
    /// start; 3 `--timeout` passed; 64 bad arguments (an engine this binary was built without too).
    @main
    struct HeadlessRender: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "headless-render",
            abstract: """
                Render a directory through a SchemeKit scheme in a headless engine: WebKitGTK (a custom \
                scheme; run under xvfb-run -a), Chromium or Firefox (the virtual origin \
                https://<scheme>.localhost/), started here or attached to with --connect.
                """
        )

        @Argument(help: "The directory to serve.")
        var directory: String

        @Option(
            help: """
                The engine: 'webkit' (WebKitGTK at app://localhost/; needs an X display: run under \
                xvfb-run -a), 'chromium' (headless Chromium at https://app.localhost/, over the DevTools \
                pipe) or 'firefox' (headless Firefox at https://app.localhost/, over WebDriver BiDi). \
                Default: the first of these this binary has.
                """)
        var engine: RenderEngine = .builtDefault

        @Option(help: "The scheme to serve the directory on (Chromium: the origin https://<scheme>.localhost/).")
        var scheme = "app"

        @Option(help: "The path to load, with a query or fragment if you like (/page.html?id=7#top).")
        var path = "/index.html"

        @Option(
            help: "Load this URL instead (file://, http://127.0.0.1…) — for comparisons; the directory is still served."
        )
        var url: String?

        @Option(
            help: """
                Fetch paths the directory does not have from this origin (http or https, e.g. \
                https://origin.example): app://localhost/a.js → https://origin.example/a.js. The page \
                itself may then come from the origin too.
                """,
            transform: HeadlessRender.origin)
        var fallback: URL?

        @Option(
            help: ArgumentHelp(
                """
                Render a recorded site offline from this HAR file (or Playwright's .har.zip, when this \
                headless-render has the Packages trait): a request is matched by path and query against \
                the HAR's page origin (that of its first page's first entry), ahead of the directory; \
                what the HAR lacks goes on to the directory and --fallback. The page itself may come \
                from the HAR.
                """, valueName: "file"))
        var har: String?

        @Option(
            name: .customLong("record-har"),
            help: ArgumentHelp(
                """
                Record every exchange with the --fallback origin into this HAR file, with the URLs the \
                page used, so that Playwright's route_from_har replays it: https://<scheme>.localhost/… \
                on chromium, <scheme>://localhost/… on webkit. Needs --fallback.
                """, valueName: "file"))
        var recordHar: String?

        @Option(
            help: """
                How the engine may cache the directory's files: 'immutable' (the directory is a package \
                snapshot: subresources stay in the engine's memory cache between loads, as file:// ones do) \
                or 'revalidate' (Cache-Control: no-cache: every load asks SchemeKit again).
                """)
        var cache: CachePolicy = .immutable

        @Option(
            help: ArgumentHelp(
                """
                Symbolic links under the directory: follow (to any target, as nginx and Caddy do: \
                Debian's Sphinx docs link _static/jquery.js into /usr/share/javascript), within-root \
                (only to a target inside the directory), or refuse (none). A link not followed is \
                answered 403 with a body naming the policy; a URL never leads out by '..'.
                """, valueName: "follow|within-root|refuse"))
        var symlinks = LocalFileHandler.SymlinkPolicy.followWithinRoot.rawValue

        /// `--symlinks` as the file handler takes it (``validate()`` refuses any other value).
        var symlinkPolicy: LocalFileHandler.SymlinkPolicy {
            LocalFileHandler.SymlinkPolicy(rawValue: symlinks) ?? .followWithinRoot
        }

        @Option(help: "A JavaScript expression to evaluate after the load; a Promise is awaited.")
        var eval: String?

        @Option(help: "Write a PNG snapshot of the page here.")
        var screenshot: String?

        @Option(help: "Print the page to a PDF file here (after the load and --eval).")
        var pdf: String?

        @Option(
            help: """
                The PDF's paper: letter (the default, as browsers print), legal, tabloid, a3, a4, a5, or \
                WIDTHxHEIGHT with a unit: 210x297mm, 21x29.7cm, 8.5x11in.
                """,
            transform: PaperSize.init(argument:))
        var pdfPageSize: PaperSize = .letter

        @Flag(help: "Print background colours and images into the PDF (browsers leave them out by default).")
        var pdfBackground = false

        /// `--pdf-page-size` and `--pdf-background` as every engine's PDF call takes them.
        var pdfOptions: PDFOptions {
            PDFOptions(pageWidth: pdfPageSize.width, pageHeight: pdfPageSize.height, background: pdfBackground)
        }

        @Option(
            help: """
                Attach to a browser this command does not start, and never stop it: a Chromium DevTools \
                WebSocket (ws://HOST:PORT/devtools/browser/<id>, a Selenium Grid session's se:cdp, \
                browserless) with --engine chromium, or a Firefox WebDriver BiDi WebSocket \
                (ws://HOST:PORT/session) with --engine firefox. ws:// only.
                """,
            transform: HeadlessRender.webSocketURL)
        var connect: URL?

        @Option(
            help: """
                The largest protocol message to or from the browser, in bytes (suffixes K, M, G: 16M). \
                A browser this command starts streams response bodies from its loopback https origin, \
                so this bounds only its protocol messages. With --connect a body goes base64-encoded \
                in one WebSocket message, so it bounds bodies to about three quarters of it, and a \
                larger body fails with an error naming this limit. Default: 16M with --connect, 256M \
                for the Firefox and 160M for the Chromium this command starts.
                """,
            transform: HeadlessRender.byteCount)
        var maxMessageSize: Int?

        @Option(
            help: """
                Keep the browser's profile (cookies, caches, storage) in this directory from one run to \
                the next. Without it every run starts empty and leaves nothing behind: WebKitGTK uses an \
                ephemeral network session, Chromium and Firefox a temporary profile.
                """)
        var profile: String?

        @Option(
            help: """
                How Chromium and Firefox reach the directory: auto (the browser's loopback https origin: \
                bodies stream, cookies and workers behave as from a web server) or interception (each \
                response in one protocol message, what --connect uses). Default: auto.
                """)
        var transport: TransportOption = .auto

        @Option(help: "Give up after this many seconds.")
        var timeout: Double = 30

        @Option(help: "Load the page N times on cold views and N times on warm pooled views.")
        var iterations: Int?

        @Flag(help: "Print one JSON object at the end: the report, or why the run failed.")
        var json = false

        @Flag(
            help: """
                WebKitGTK: render without the media extension (libSchemeKitWebKitGTKMedia.so): <video> and \
                <audio> on the app's scheme then fail to load. Without this flag a missing extension is an \
                error (exit 2), so a page never silently loses its media.
                """)
        var noMedia = false

        func validate() throws {
            guard engine.isBuilt else {
                throw ValidationError(
                    "this headless-render was built without \(engine.rawValue); build with `swift build --traits \(engine.trait)`"
                )
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw ValidationError("no such directory: \(directory)")
            }
            do {
                _ = try SchemeName(validating: scheme)
            } catch {
                throw ValidationError("invalid --scheme: \(error)")
            }
            if let har, !FileManager.default.isReadableFile(atPath: har) {
                throw ValidationError("no such file: --har \(har) (give a HAR file, or Playwright's .har.zip)")
            }
            guard LocalFileHandler.SymlinkPolicy(rawValue: symlinks) != nil else {
                throw ValidationError("invalid --symlinks '\(symlinks)': give follow, within-root or refuse")
            }
            if let recordHar {
                guard fallback != nil else {
                    throw ValidationError("--record-har records what --fallback fetches: give --fallback <origin> too")
                }
                var isDirectory: ObjCBool = false
                let parent = URL(fileURLWithPath: recordHar).deletingLastPathComponent().path
                guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue
                else { throw ValidationError("invalid --record-har '\(recordHar)': no directory \(parent)") }
            }
            // With a fallback or a HAR, the page may come from the origin or the HAR.
            if url == nil, fallback == nil, har == nil, !Self.directory(directory, has: path) {
                throw ValidationError("\(path) not found in \(directory)")
            }
            // A day at most: `inf` (or 1e19) would overflow the engines' deadlines.
            guard timeout > 0, timeout <= 86_400 else {
                throw ValidationError("--timeout must be positive and at most 86400 seconds (a day)")
            }
            try Self.checkOutput(screenshot, option: "--screenshot")
            try Self.checkOutput(pdf, option: "--pdf")
            if let iterations, iterations < 1 { throw ValidationError("--iterations must be at least 1") }
            if connect != nil, engine == .webkit {
                throw ValidationError("--connect attaches to a browser: use it with --engine chromium or firefox")
            }
            if maxMessageSize != nil, engine == .webkit {
                throw ValidationError(
                    "--max-message-size applies to the browsers' messages: --engine chromium or firefox (WebKitGTK streams bodies)"
                )
            }
        }

        /// The largest body the Chromium this command starts takes over its pipe by default (150 MiB
        /// arrived whole, measured): `--max-message-size` sets another.
        static let launchedChromiumBodyLimit = 160 << 20

        /// Refuses an output path that cannot take a file: empty, a directory, or in a directory
        /// that does not exist (an empty shell variable must not name the current directory).
        static func checkOutput(_ path: String?, option: String) throws {
            guard let path else { return }
            guard !path.isEmpty else { throw ValidationError("\(option) needs a file path, not an empty one") }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw ValidationError("\(option) \(path) is a directory: give a file path")
            }
            let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
            guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw ValidationError("\(option) \(path): no directory \(parent)")
            }
        }

        /// `--path` as the page's URL path: with a leading `/`, and with the trailing one a directory
        /// needs (`/docs?x=1` → `/docs/?x=1`), so its index page's relative links are its own on
        /// every engine (WebKitGTK follows no redirect to add it).
        var pagePath: String {
            var path = path.hasPrefix("/") ? path : "/" + path
            let end = path.firstIndex { $0 == "?" || $0 == "#" } ?? path.endIndex
            if !path[..<end].hasSuffix("/"), Self.kind(of: path, in: directory) == true { path.insert("/", at: end) }
            return path
        }

        /// Whether `--path` names something in `directory`: its path without the query or fragment
        /// (`/search.html?q=1#top`), as written or percent-decoded (`/a%20b.html`), a file or a
        /// directory.
        static func directory(_ directory: String, has path: String) -> Bool {
            kind(of: path, in: directory) != nil
        }

        /// What `path` (its query and fragment aside, as written or percent-decoded) names in
        /// `directory`: `true` for a directory, `false` for anything else, `nil` for nothing.
        private static func kind(of path: String, in directory: String) -> Bool? {
            let bare = path.prefix { $0 != "?" && $0 != "#" }.drop { $0 == "/" }
            let root = URL(fileURLWithPath: directory)
            for name in [String(bare), bare.removingPercentEncoding].compactMap({ $0 }) {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(
                    atPath: root.appendingPathComponent(name).path, isDirectory: &isDirectory)
                {
                    return isDirectory.boolValue
                }
            }
            return nil
        }

        /// Parses `--connect`: a `ws://` URL with a host.
        static func webSocketURL(_ argument: String) throws -> URL {
            guard let url = URL(string: argument), url.scheme?.lowercased() == "ws",
                url.host(percentEncoded: false)?.isEmpty == false
            else {
                throw ValidationError(
                    "--connect must be a ws:// URL, such as ws://127.0.0.1:9222/devtools/browser/<id> or ws://127.0.0.1:9222/session"
                )
            }
            return url
        }

        /// Parses a byte count: digits with an optional K, M or G suffix (powers of 1024; `MiB`, `MB`
        /// and lower case read the same), from 1 KiB to 4 GiB − 1.
        static func byteCount(_ argument: String) throws -> Int {
            var text = argument.trimmingCharacters(in: .whitespaces).uppercased()
            for suffix in ["IB", "B"] where text.hasSuffix(suffix) { text.removeLast(suffix.count) }
            var multiplier = 1
            if let last = text.last, let shift = ["K": 10, "M": 20, "G": 30][String(last)] {
                multiplier = 1 << shift
                text.removeLast()
            }
            guard let value = Int(text), value > 0, value <= (Int(UInt32.max) / multiplier),
                value * multiplier >= 1024
            else {
                throw ValidationError(
                    "--max-message-size must be a byte count from 1K to 4G, such as 1M, 16M or 65536")
            }
            return value * multiplier
        }

        /// Parses `--fallback`: an http or https URL with a host.
        static func origin(_ argument: String) throws -> URL {
            guard let origin = URL(string: argument), ["http", "https"].contains(origin.scheme?.lowercased()),
                origin.host(percentEncoded: false)?.isEmpty == false
            else { throw ValidationError("--fallback must be an http or https origin, such as https://origin.example") }
            return origin
        }

        func run() throws {
            let deadline = timeout
            AbortCleanup.installSignalHandlers()
            let options = self
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline) {
                AbortCleanup.abort(with: options.fail("timed out after \(deadline) s", status: 3))
            }
            switch engine {
            case .webkit:
                #if WebKitGTK
                    Self.exitNow(WebKitRenderer.runOnGLibThread(options: self))
                #endif
            case .chromium:
                #if Chromium
                    let options = self
                    Self.exitNow(runBlocking { try await ChromiumPageRenderer(options: options).run() })
                #endif
            case .firefox:
                #if Firefox
                    let options = self
                    Self.exitNow(runBlocking { try await FirefoxPageRenderer(options: options).run() })
                #endif
            }
            Self.exitNow(64)  // not reached: `validate()` refuses an engine that is not built
        }

        /// Runs `body` in a task and blocks the calling thread until it returns: its exit code, or 1
        /// (2 for ``EngineUnavailable``) with the error on standard error (and, with `--json`, a
        /// ``RenderReport/Failure`` on standard output).
        func runBlocking(_ body: @escaping @Sendable () async throws -> Int32) -> Int32 {
            let outcome = ConditionLock<Result<Int32, any Error>?>(nil)
            Task {
                let result = await Result { try await body() }
                outcome.withLock { $0 = result }
            }
            switch outcome.wait(until: { $0 })! {
            case .success(let status):
                return status
            case .failure(let error as UsageFailure):
                FileHandle.standardError.write(Data("headless-render: error: \(error)\n".utf8))
                return 64
            case .failure(let error):
                // An abort (`--timeout`, a signal) makes the run fail as it ends it: its own line says why.
                let status: Int32 = error is EngineUnavailable ? 2 : 1
                return AbortCleanup.aborting == nil ? fail("\(error)", status: status) : status
            }
        }

        /// The page this run loads: `--url`, or `--path` on the engine's origin
        /// (`app://localhost/` on WebKitGTK, the virtual `https://app.localhost/` on the browsers).
        var target: String {
            if let url { return url }
            return engine == .webkit
                ? "\(scheme)://localhost\(pagePath)" : "https://\(scheme).localhost\(pagePath)"
        }

        /// Reports a failed run: `message` on standard error and, with `--json`, a
        /// ``RenderReport/Failure`` on standard output (unless the report was printed already).
        /// Returns `status`.
        func fail(_ message: String, status: Int32) -> Int32 {
            FileHandle.standardError.write(Data("headless-render: \(message)\n".utf8))
            if json {
                Self.printReport(
                    RenderReport.Failure(engine: engine.rawValue, url: target, error: message, exitStatus: status)
                        .rendered())
            }
            return status
        }

        /// Whether the report (or the failure that replaces it) is printed: a run prints one.
        private static let reportPrinted = Locked(false)

        /// Prints `text` on standard output, unless a report was printed already.
        static func printReport(_ text: String) {
            let first = reportPrinted.withLock { printed in
                defer { printed = true }
                return !printed
            }
            if first { print(text) }
        }

        /// The registry every engine serves on `--scheme`: the `--har` entries (matched against the
        /// HAR's page origin, passing on a miss), the directory (a directory asked for without its
        /// trailing slash redirected to it on the browsers), then the `--fallback` origin (in a
        /// `HARRecorder` with `--record-har`).
        ///
        /// - Throws: ``UsageFailure`` when the `--har` file cannot be read or the `--record-har` file
        ///   cannot be written.
        func makeRegistry() throws -> SchemeRegistry {
            var handlers: [any SchemeHandler] = []
            if let har {
                handlers.append(try harReplay(har))
            }
            // Browsers follow a redirect (a directory asked for without its slash gets one, as from a
            // web server); WebKitGTK does not follow a custom scheme's, so it gets the index file.
            handlers.append(
                LocalFileHandler(
                    configuration: .init(
                        root: .directory(URL(fileURLWithPath: directory)), cacheControl: cache.cacheControl,
                        symlinks: symlinkPolicy, directorySlashRedirect: engine != .webkit)))
            if let fallback {
                handlers.append(try recording(NetworkFallbackHandler(origin: fallback)))
            }
            let registry = SchemeRegistry()
            try registry.register(SchemeHandlerChain(handlers), for: scheme)
            return registry
        }

        /// The `--har` replay: a `.har.zip` (Playwright's default) is unzipped with the package
        /// store's strict zip reader (every engine trait enables `Packages`) into a temporary
        /// directory removed at exit.
        private func harReplay(_ har: String) throws -> HARReplayHandler {
            do {
                let input = try HARFileInput(URL(fileURLWithPath: har)) {
                    try ArchiveExtractor.extract(zip: $0, into: $1)
                }
                Self.atExit.withLock { $0.append(input.removeTemporaryFiles) }
                return try HARReplayHandler(
                    contentsOf: input.harFile,
                    configuration: .init(matching: HARMatching(origin: .page), whenMissing: .pass))
            } catch {
                throw UsageFailure(description: "invalid --har '\(har)': \(error)")
            }
        }

        /// `handler`, recorded into the `--record-har` file (written at once) when there is one, with
        /// the URLs the page used. Before exiting, the run waits (up to 5 s) for exchanges still being
        /// recorded: the page may have its response before the recorder has written it.
        private func recording(_ handler: some SchemeHandler) throws -> any SchemeHandler {
            guard let recordHar else { return handler }
            let url: HARRecordedURL =
                engine == .webkit ? .request : .origin(URL(string: "https://\(scheme.lowercased()).localhost")!)
            let recorder = CountingHandler(
                HARRecorder(handler, to: URL(fileURLWithPath: recordHar), options: HARRecordingOptions(url: url)))
            do {
                try recorder.wrapped.write()
            } catch {
                throw UsageFailure(description: "invalid --record-har '\(recordHar)': \(error)")
            }
            Self.atExit.withLock {
                $0.insert(
                    {
                        let deadline = ContinuousClock.now + .seconds(5)
                        while recorder.inFlight > 0, ContinuousClock.now < deadline { usleep(10_000) }
                    }, at: 0)
            }
            return recorder
        }

        /// What to do before exiting, in order: wait for the exchanges `--record-har` is still
        /// recording, remove the temporary directory of an unzipped `.har.zip`.
        static let atExit = Locked<[@Sendable () -> Void]>([])

        /// Exits without running exit-time destructors: WebKit's and GTK's do not expect to run while
        /// another thread owns the main context. While an abort (`--timeout`, a signal) is under
        /// way, only the aborting thread exits, with its status: the render's own path, failing
        /// because the cleanup closed the browser, waits for it.
        static func exitNow(_ code: Int32) -> Never {
            if let aborting = AbortCleanup.aborting, aborting != code {
                while true { sleep(60) }
            }
            for action in atExit.withLock({ $0 }) { action() }
            fflush(nil)
            _exit(code)
        }
    }

    /// The engine `headless-render` renders with.
    enum RenderEngine: String, ExpressibleByArgument, CaseIterable {
        /// WebKitGTK 6.0, under an X display (package trait `WebKitGTK`).
        case webkit
        /// Headless Chromium over the DevTools pipe (package trait `Chromium`).
        case chromium
        /// Headless Firefox over WebDriver BiDi (package trait `Firefox`).
        case firefox

        /// The first of `webkit`, `chromium`, `firefox` this binary has.
        static var builtDefault: RenderEngine {
            #if WebKitGTK
                .webkit
            #elseif Chromium
                .chromium
            #else
                .firefox
            #endif
        }

        /// Whether this binary was built with the engine.
        var isBuilt: Bool {
            switch self {
            case .webkit:
                #if WebKitGTK
                    true
                #else
                    false
                #endif
            case .chromium:
                #if Chromium
                    true
                #else
                    false
                #endif
            case .firefox:
                #if Firefox
                    true
                #else
                    false
                #endif
            }
        }

        /// The package trait that builds the engine.
        var trait: String {
            switch self {
            case .webkit: "WebKitGTK"
            case .chromium: "Chromium"
            case .firefox: "Firefox"
            }
        }
    }

    /// The engine could not be started (exit code 2).
    struct EngineUnavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// An option's value cannot be used, found only once the run started (exit code 64): a `--har`
    /// file that is no HAR, a `--record-har` file that cannot be written.
    struct UsageFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// `--transport`: how Chromium and Firefox reach the directory.
    enum TransportOption: String, ExpressibleByArgument, CaseIterable {
        /// The browser's loopback https origin (`BrowserTransport/automatic`).
        case auto
        /// The protocol's interception (`BrowserTransport/interception`).
        case interception

        var browserTransport: BrowserTransport { self == .auto ? .automatic : .interception }
    }

    /// How `headless-render` lets the engine cache the files it serves.
    enum CachePolicy: String, ExpressibleByArgument, CaseIterable {
        /// `Cache-Control: max-age=31536000, immutable`.
        case immutable
        /// `Cache-Control: no-cache`, the file handler's default.
        case revalidate

        /// The `Cache-Control` value the file handler sends.
        var cacheControl: String {
            switch self {
            case .immutable: "max-age=31536000, immutable"
            case .revalidate: "no-cache"
            }
        }
    }

    extension Result where Failure == any Error {
        init(catching body: () async throws -> Success) async {
            do { self = .success(try await body()) } catch { self = .failure(error) }
        }
    }
#else
    import Foundation

    /// `headless-render` built without an engine: says how to build one and exits 64.
    @main
    enum HeadlessRender {
        static func main() {
            FileHandle.standardError.write(
                Data(
                    "headless-render: error: built without an engine; build with `swift build --traits WebKitGTK` (or Chromium, or Firefox)\n"
                        .utf8))
            exit(64)
        }
    }
#endif
