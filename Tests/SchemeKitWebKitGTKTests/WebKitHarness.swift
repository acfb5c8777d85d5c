// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import Dispatch
    import Foundation
    import HTTPTypes
    import LoopbackTestSupport
    @testable import SchemeKit
    import SchemeKitTesting
    import SchemeKitWebKitGTK
    import Synchronization

    /// One GTK/WebKit instance per test process: the GLib main thread, a registry with the sample app
    /// (`app://localhost/`), a slow streaming handler (`app://slow/`), one that always fails
    /// (`app://failing/`) and a handler that writes while
    /// the main context is busy (`app://offmain/`), two scratch directories — one served with
    /// cacheable responses (`app://cached/`), one with the file handler's default `no-cache`
    /// (`app://revalidated/`) — and the adapter serving them.
    final class WebKitHarness: Sendable {
        let glib: GLibMainThread
        let registry: SchemeRegistry
        let adapter: WebKitSchemeAdapter
        /// Collects the adapter's records from the start: the request log the tests read.
        let records: SchemeRequestRecordFeed.Collector
        let slow: SlowHandler
        let offMain: OffMainWriteHandler
        let appDirectory: URL
        /// Served as `app://cached/` with `Cache-Control: max-age=31536000, immutable`.
        let cachedDirectory: URL
        /// Served as `app://revalidated/` with the file handler's default `Cache-Control: no-cache`.
        let revalidatedDirectory: URL
        /// The handlers of `app://cached/` and `app://revalidated/`, recording the paths asked for.
        let cached: PathRecordingHandler
        let revalidated: PathRecordingHandler
        /// `app://media/`: a scratch directory for ``MediaClip`` and its page, with every range recorded.
        let media: RangeRecordingHandler
        let mediaDirectory: URL
        /// `app://slowmedia/`: the clip, slowly.
        let slowMedia: SlowMediaHandler
        /// A second web context with the same registry but no media extension (made on first use).
        private let plain = Mutex<(context: UInt, adapter: WebKitSchemeAdapter)?>(nil)
        /// `app://echo/`: `/page.html`, and `POST /echo`, answered with the request's body.
        let echo: EchoHandler
        /// A third web context whose adapter takes request bodies of at most ``limitedBodySize``.
        private let limited = Mutex<(context: UInt, adapter: WebKitSchemeAdapter)?>(nil)
        static let limitedBodySize = 256 << 10

        /// The shared harness, or why it could not start (no display: run under `xvfb-run -a`).
        static let shared: Result<WebKitHarness, any Error> = Result { try WebKitHarness() }

        static func get() throws -> WebKitHarness { try shared.get() }

        private init() throws {
            glib = try GLibMainThread()
            appDirectory = Self.sampleApp()
            registry = SchemeRegistry()
            slow = SlowHandler()
            offMain = OffMainWriteHandler(mainContext: glib.executor)
            try registry.register(LocalFileHandler(root: appDirectory), for: "app", host: "localhost")
            try registry.register(slow, for: "app", host: "slow")
            try registry.register(offMain, for: "app", host: "offmain")
            // `app://failing/`: every request fails before a head, so a page load there fails.
            try registry.register(
                ClosureHandler(name: "failing") { _, _ in throw CocoaError(.fileReadUnknown) }, for: "app",
                host: "failing")
            Self.removeScratchOfEndedRuns()
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("schemekit-webkit-\(getpid())")
            cachedDirectory = scratch.appendingPathComponent("cached")
            revalidatedDirectory = scratch.appendingPathComponent("revalidated")
            for directory in [cachedDirectory, revalidatedDirectory] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            cached = PathRecordingHandler(
                LocalFileHandler(
                    configuration: .init(root: .directory(cachedDirectory), cacheControl: "max-age=31536000, immutable")
                ))
            revalidated = PathRecordingHandler(LocalFileHandler(root: revalidatedDirectory))
            try registry.register(cached, for: "app", host: "cached")
            try registry.register(revalidated, for: "app", host: "revalidated")
            mediaDirectory = scratch.appendingPathComponent("media")
            try FileManager.default.createDirectory(at: mediaDirectory, withIntermediateDirectories: true)
            media = RangeRecordingHandler(LocalFileHandler(root: mediaDirectory))
            slowMedia = SlowMediaHandler()
            try registry.register(media, for: "app", host: "media")
            try registry.register(slowMedia, for: "app", host: "slowmedia")
            echo = EchoHandler()
            try registry.register(echo, for: "app", host: "echo")
            // `app://redirect/start` redirects to `app://redirect/landed.html?from=start`.
            let redirect = StaticHandler(
                "", status: .found, headerFields: [.location: "app://redirect/landed.html?from=start"])
            let landed = StaticHandler("<!doctype html><title>landed</title>", mimeType: "text/html")
            try registry.register(
                SchemeHandlerChain(redirect.matching(.path("/start")), landed), for: "app", host: "redirect")
            let made = Mutex<WebKitSchemeAdapter?>(nil)
            let done = DispatchSemaphore(value: 0)
            let registry = self.registry
            let executor = glib.executor
            executor.execute {
                let adapter = WebKitSchemeAdapter(
                    registry: registry, context: webkit_web_context_get_default(), executor: executor)
                made.withLock { $0 = adapter }
                done.signal()
            }
            done.wait()
            adapter = made.withLock { $0! }
            records = adapter.recordFeed.startCollecting()
        }

        /// Removes the scratch directories (`schemekit-webkit-<pid>`) of test processes that ended.
        static func removeScratchOfEndedRuns() {
            let temporary = FileManager.default.temporaryDirectory
            let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
            for name in names where name.hasPrefix("schemekit-webkit-") {
                guard let pid = pid_t(name.dropFirst("schemekit-webkit-".count)), processIsGone(pid) else { continue }
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }

        /// The repository's `Samples/app`, found from this file's path
        /// (`Tests/SchemeKitWebKitGTKTests/WebKitHarness.swift`).
        static func sampleApp() -> URL {
            URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Samples/app")
        }

        /// A new session that has loaded the sample app.
        ///
        /// The adapter and its request log are shared by every suite, and suites run alongside each
        /// other: a test reads the entries after a mark (``logMark``/``log(since:)``), never clears
        /// the log, and tells its own requests apart by path or a query of its own.
        func sessionShowingSampleApp() async throws -> WebViewSession {
            let session = try await makeSession()
            do {
                try await withTimeLimit(.seconds(20), "loading the sample app") {
                    try await session.load("app://localhost/index.html")
                }
                return session
            } catch {
                await session.tearDown()
                throw error
            }
        }

        /// Every request the adapter ended since the harness started, in order.
        var log: [SchemeRequestRecord] { records.collected }

        /// Where the request log ends now.
        var logMark: Int { log.count }

        /// The request log's entries after `mark`.
        func log(since mark: Int) -> ArraySlice<SchemeRequestRecord> { log.dropFirst(mark) }

        /// Writes ``MediaClip`` and its page into `app://media/`.
        func installMediaClip() throws {
            try MediaClip.install(in: mediaDirectory)
        }

        /// A web context with the harness's schemes but without the media extension.
        func plainContext() async throws -> OpaquePointer {
            if let made = plain.withLock({ $0 }) { return OpaquePointer(bitPattern: made.context)! }
            let registry = self.registry
            let executor = glib.executor
            let made = try await executor.run { () -> UInt in
                let context = webkit_web_context_new()!
                let adapter = WebKitSchemeAdapter(
                    registry: registry, context: context, executor: executor, mediaExtension: nil)
                self.plain.withLock { $0 = (UInt(bitPattern: context), adapter) }
                return UInt(bitPattern: context)
            }
            return OpaquePointer(bitPattern: made)!
        }

        /// A web context with the harness's schemes whose adapter's ``WebKitSchemeAdapter/maximumRequestBodySize``
        /// is ``limitedBodySize`` (no media extension).
        func limitedContext() async throws -> OpaquePointer {
            if let made = limited.withLock({ $0 }) { return OpaquePointer(bitPattern: made.context)! }
            let registry = self.registry
            let executor = glib.executor
            let made = try await executor.run { () -> UInt in
                let context = webkit_web_context_new()!
                let adapter = WebKitSchemeAdapter(
                    registry: registry, context: context, executor: executor,
                    maximumRequestBodySize: Self.limitedBodySize, mediaExtension: nil)
                self.limited.withLock { $0 = (UInt(bitPattern: context), adapter) }
                return UInt(bitPattern: context)
            }
            return OpaquePointer(bitPattern: made)!
        }

        /// The adapter of ``limitedContext()``, once made.
        var limitedAdapter: WebKitSchemeAdapter? { limited.withLock { $0?.adapter } }

        func makeSession() async throws -> WebViewSession {
            try await WebViewSession.make(executor: glib.executor)
        }
    }

    /// Runs `body` with `session`, then tears the session down (its view is destroyed), also when
    /// `body` throws: no view of a test outlives it. Tearing down again is a no-op, so `body` may
    /// tear it down itself.
    func tearingDown<T: Sendable>(
        _ session: WebViewSession, _ body: (WebViewSession) async throws -> T
    ) async throws -> T {
        do {
            let result = try await body(session)
            await session.tearDown()
            return result
        } catch {
            await session.tearDown()
            throw error
        }
    }

    /// `app://slow/`: `/page.html` fetches `/stream`, which writes a head and a first chunk, then one
    /// chunk every 20 ms until stopped — a response that never ends on its own.
    final class SlowHandler: SchemeHandler {
        struct Record {
            var started = 0
            var cancelled = 0
            var writesAfterCancel = 0
        }

        let record = Mutex(Record())
        var name: String { "slow" }

        func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
            if request.path == "/page.html" {
                let html = """
                    <!doctype html><title>slow</title><script>
                    fetch('/stream').then(r => { window.streaming = true; return r.text() })
                    </script>
                    """
                try await writer.respond(.ok, mimeType: "text/html", body: Data(html.utf8))
                return .handled
            }
            record.withLock { $0.started += 1 }
            try await writer.writeHead(SchemeResponse(status: .ok, mimeType: "application/octet-stream"))
            let chunk = Data(repeating: 0x61, count: 16 << 10)
            do {
                while true {
                    try await writer.write(chunk)
                    try await Task.sleep(for: .milliseconds(20))  // the rate: a chunk every 20 ms until stopped
                }
            } catch {
                record.withLock { $0.cancelled += 1 }
                // A stopped task must refuse further writes.
                if (try? await writer.write(chunk)) != nil { record.withLock { $0.writesAfterCancel += 1 } }
                throw error
            }
        }
    }

    /// `app://offmain/`: `/page.html`, and `/body`, whose handler first occupies the GLib main context
    /// (a job there that waits up to 5 s for the handler's signal), then writes a head, three chunks
    /// and the finish, and records whether all of that returned while the main context was still
    /// occupied — which only holds when writes do not need a main-context round trip.
    final class OffMainWriteHandler: SchemeHandler {
        struct Record {
            var served = 0
            var wroteWhileMainContextBusy = 0
        }

        static let chunks = ["alpha-", "beta-", "gamma"]
        let record = Mutex(Record())
        let mainContext: GLibExecutor
        var name: String { "offmain" }

        init(mainContext: GLibExecutor) {
            self.mainContext = mainContext
        }

        func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
            if request.path == "/page.html" {
                let html = "<!doctype html><title>offmain</title>"
                try await writer.respond(.ok, mimeType: "text/html", body: Data(html.utf8))
                return .handled
            }
            let entered = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let busy = Atomic<Bool>(false)
            mainContext.execute {
                busy.store(true, ordering: .sequentiallyConsistent)
                entered.signal()
                _ = release.wait(timeout: .now() + 5)
                busy.store(false, ordering: .sequentiallyConsistent)
            }
            _ = entered.wait(timeout: .now() + 5)
            try await writer.writeHead(SchemeResponse(status: .ok, mimeType: "text/plain"))
            for chunk in Self.chunks { try await writer.write(Data(chunk.utf8)) }
            try await writer.finish()
            let whileBusy = busy.load(ordering: .sequentiallyConsistent)
            release.signal()
            record.withLock {
                $0.served += 1
                if whileBusy { $0.wroteWhileMainContextBusy += 1 }
            }
            return .handled
        }
    }

    /// `app://echo/`: `/page.html`, and any other path answered with the request's body (read in
    /// full); every error reading a body is recorded.
    final class EchoHandler: SchemeHandler {
        private let record = Mutex<[EngineError]>([])
        var name: String { "echo" }
        var supportedMethods: Set<HTTPRequest.Method> { [.get, .head, .post] }

        /// The errors bodies failed with, in order.
        var errors: [EngineError] { record.withLock { $0 } }

        /// What the reader of the last `/slowread` body got: its bytes, and how it ended (`nil` while
        /// it reads).
        let slowRead = Locked<(bytes: Int, outcome: String?)>((0, nil))

        func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
            if request.path == "/page.html" {
                let html = "<!doctype html><title>echo</title>"
                try await writer.respond(.ok, mimeType: "text/html", body: Data(html.utf8))
                return .handled
            }
            if request.path == "/slowread" {
                // The body goes to work a stop does not cancel (a task of its own), read slowly;
                // the handler waits until it is stopped.
                slowRead.withLock { $0 = (0, nil) }
                guard case .stream(let chunks) = request.body.storage else {
                    throw CocoaError(.fileReadUnknown)
                }
                Task.detached { [slowRead] in
                    var outcome = "ended"
                    do {
                        for try await chunk in chunks {
                            slowRead.withLock { $0.bytes += chunk.count }
                            try? await Task.sleep(for: .milliseconds(10))  // a deliberately slow reader
                        }
                    } catch is CancellationError {
                        outcome = "cancelled"
                    } catch {
                        outcome = "\(error)"
                    }
                    slowRead.withLock { $0.outcome = outcome }
                }
                while true { try await Task.sleep(for: .seconds(1)) }  // hangs until stopped
            }
            let body: Data
            do {
                body = try await request.body.collect(upTo: 64 << 20)
            } catch let error as EngineError {
                record.withLock { $0.append(error) }
                throw error
            }
            try await writer.respond(.ok, mimeType: "application/octet-stream", body: body)
            return .handled
        }
    }

    /// A file handler that records every path it is asked for (the adapter's log is shared by suites
    /// running in parallel; this record belongs to one host).
    final class PathRecordingHandler: SchemeHandler {
        let files: LocalFileHandler
        private let record = Mutex<[String]>([])

        init(_ files: LocalFileHandler) {
            self.files = files
        }

        var name: String { files.name }

        /// Every path asked for so far, in order.
        var paths: [String] { record.withLock { $0 } }

        func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
            record.withLock { $0.append(request.path) }
            return try await files.handle(request, writer: writer)
        }
    }

    extension SchemeRequestRecord {
        /// The registry URL's path (`/index.html`).
        var path: String { URL(string: registryURL)?.path(percentEncoded: true) ?? registryURL }

        /// Whether WebKit canceled the request before it ended: the only way a WebKitGTK request is
        /// stopped, recorded as `StopReason.canceledByPage` as on the browsers.
        var wasStopped: Bool { outcome == .stopped(reason: .canceledByPage) }
    }
#endif
