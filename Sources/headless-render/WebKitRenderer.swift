// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import Foundation
    import SchemeKit
    import SchemeKitWebKitGTK

    /// The work of one `headless-render --engine webkit` run, on the GLib main thread.
    struct WebKitRenderer {
        let options: HeadlessRender
        let glib: GLibMainThread

        /// Forwards `console.*` and uncaught errors to the `console` script message handler.
        static let consoleScript = """
            (() => {
              const post = (level, args) => {
                try {
                  const text = args.map((a) => typeof a === 'string' ? a : (() => { try { return JSON.stringify(a); } catch (e) { return String(a); } })()).join(' ');
                  window.webkit.messageHandlers.console.postMessage(level + ': ' + text);
                } catch (e) {}
              };
              for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
                const original = console[level].bind(console);
                console[level] = (...args) => { post(level, args); original(...args); };
              }
              window.addEventListener('error', (event) => post('error', [event.message]));
              window.addEventListener('unhandledrejection', (event) => post('error', ['unhandled rejection: ' + event.reason]));
            })();
            """

        final class Holder: Sendable {}

        /// Starts the GLib main thread, renders, stops it: the run's exit code (2 when GLib could
        /// not start).
        static func runOnGLibThread(options: HeadlessRender) -> Int32 {
            if !options.noMedia {
                guard let media = WebKitSchemeAdapter.defaultMediaExtension else {
                    return options.fail(Self.missingMediaExtension, status: 2)
                }
                if let problem = WebKitSchemeAdapter.mediaExtensionProblem(at: media) {
                    return options.fail(problem, status: 2)
                }
            }
            let glib: GLibMainThread
            do {
                glib = try GLibMainThread()
            } catch {
                return options.fail("\(error)", status: 2)
            }
            let code = options.runBlocking { try await WebKitRenderer(options: options, glib: glib).run() }
            glib.stop()
            return code
        }

        /// Why a run without `--no-media` cannot start when the extension is missing: one line.
        static let missingMediaExtension = """
            the WebKitGTK media extension \(WebKitSchemeAdapter.mediaExtensionFileName) is not next to this \
            binary, so <video>/<audio> on the app's scheme would not play: build every product of the trait \
            (`swift build --traits WebKitGTK`, or `--product SchemeKitWebKitGTKMedia`), set \
            SCHEMEKIT_WEBKIT_MEDIA_EXTENSION to the file, or pass --no-media
            """

        func run() async throws -> Int32 {
            let executor = glib.executor
            let registry = try options.makeRegistry()
            let media = options.noMedia ? nil : WebKitSchemeAdapter.defaultMediaExtension
            let adapter = try await executor.run {
                WebKitSchemeAdapter(registry: registry, executor: executor, mediaExtension: media)
            }
            let target = options.target
            // Reset views to a blank page of the target's own site, so warm views stay in their web
            // process (a site change moves a view to a new one); other URLs reset to about:blank.
            let blankURL =
                target.hasPrefix("\(options.scheme)://")
                ? WebKitSchemeAdapter.blankURL(scheme: options.scheme) : "about:blank"
            // `--profile DIR`: one persistent network session for every view; otherwise each view has
            // an ephemeral one of its own (nothing survives the run, or leaks between its views).
            let profile: UInt? =
                if let directory = options.profile {
                    try await executor.run {
                        UInt(
                            bitPattern: UnsafeMutableRawPointer(
                                webkit_network_session_new("\(directory)/data", "\(directory)/cache")))
                    }
                } else { nil }
            let network: @Sendable () -> OpaquePointer? = { profile.flatMap { OpaquePointer(bitPattern: $0) } }
            let pool = SessionPool(
                configuration: .init(warmCount: 1, maximumCount: 2, sweepInterval: nil), executor: executor
            ) { try await WebViewSession.make(executor: executor, blankURL: blankURL, networkSession: network()) }
            await pool.start()

            let console = Locked<[String]>([])
            let holder = Holder()
            let session = try await pool.acquire(for: holder)
            // A page still running script (a busy loop, a timer) keeps its web process alive after
            // this process exits, for WebKit's 10 s watchdog, which then aborts it with a GLib
            // ERROR: end it on a timeout or a signal, and before exiting.
            let terminate = AbortCleanup.add { try? await session.terminateWebProcess() }
            defer { AbortCleanup.remove(terminate) }
            try await session.addUserScript(Self.consoleScript)
            try await session.addScriptMessageHandler("console") { value in
                let text = value.stringValue ?? value.description
                console.withLock { $0.append(text) }
            }
            let records = adapter.recordFeed.startCollecting()
            defer { _ = adapter.recordFeed.stopCollecting(records) }
            let started = ContinuousClock.now
            do {
                try await session.load(target)
            } catch {
                throw RenderError("the page failed to load: \(error)")
            }
            let loadMs = RenderReport.milliseconds(ContinuousClock.now - started)
            var report = RenderReport(engine: "webkit", url: target, loadMs: loadMs, requests: [], console: [])
            var status: Int32 = 0
            if let expression = options.eval {
                do {
                    report.eval = try await session.evaluate(expression).description
                } catch {
                    FileHandle.standardError.write(Data("headless-render: --eval threw: \(error)\n".utf8))
                    status = 1
                }
            }
            if let screenshot = options.screenshot {
                try await session.snapshot(to: screenshot)
                report.screenshot = screenshot
            }
            if let pdf = options.pdf {
                try await session.printToPDF(to: pdf, options: options.pdfOptions)
                report.pdf = pdf
            }
            // A request the page saw complete may still be ending here (its record is published when
            // the task ends, after WebKit read the last byte): wait for those, briefly.
            let deadline = ContinuousClock.now + .seconds(2)
            while adapter.liveRequestCount > 0, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
            report.requests = adapter.recordFeed.stopCollecting(records).map(RenderReport.Request.init)
            report.console = console.withLock { $0 }
            try await pool.recycle(session)

            if let iterations = options.iterations {
                var cold: [Double] = []
                for _ in 0..<iterations {
                    let begin = ContinuousClock.now
                    let view = try await WebViewSession.make(executor: executor, warm: false, networkSession: network())
                    try await view.load(target)
                    cold.append(RenderReport.milliseconds(ContinuousClock.now - begin))
                    await view.tearDown()
                }
                var warm: [Double] = []
                for _ in 0..<iterations {
                    let begin = ContinuousClock.now
                    let view = try await pool.acquire(for: holder)
                    try await view.load(target)
                    warm.append(RenderReport.milliseconds(ContinuousClock.now - begin))
                    try await pool.recycle(view)
                }
                report.setIterations(cold: cold, warm: warm)
            }
            try? await session.terminateWebProcess()
            await pool.shutDown()
            HeadlessRender.printReport(try report.rendered(json: options.json))
            return status
        }
    }

#endif
