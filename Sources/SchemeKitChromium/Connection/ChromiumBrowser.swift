#if Chromium
    public import Foundation
    import SchemeKit
    import SchemeKitBrowserSupport

    /// A Chromium process driven over its DevTools pipe.
    ///
    /// ```swift
    /// let browser = try await ChromiumBrowser.launch()
    /// let page = try await browser.newPage()
    /// try await page.navigate(to: "https://app.localhost/")
    /// await browser.close()
    /// ```
    ///
    /// Chromium is started with `--headless --remote-debugging-pipe[=cbor] --user-data-dir=<tmp>
    /// --no-first-run [--no-sandbox]` and `about:blank`; the pipe opens no port, so no other local
    /// process can connect. ``connect(to:maximumMessageSize:timeout:)`` attaches to a Chromium
    /// someone else started instead, over its DevTools WebSocket. Always ``close()`` a browser: a
    /// launched Chromium otherwise outlives it.
    public final class ChromiumBrowser: Sendable {
        /// The DevTools connection (the browser session and every flattened session).
        package let connection: ChromiumConnection
        /// Chromium's process id; `0` for a browser attached with ``connect(to:maximumMessageSize:timeout:)``.
        public var processIdentifier: Int32 { process?.pid ?? 0 }
        /// Whether this browser attached to a Chromium it did not start (and will not stop).
        package var isAttached: Bool { process == nil }
        private let process: ChromiumProcess?
        private let temporaryProfile: URL?
        /// The targets ``newPage(url:)`` opened: what ``close()`` closes on an attached Chromium.
        private let openedTargets = Locked(Set<String>())
        /// Whether ``kill(signal:)`` was used: ``close()`` then does not ask a dead browser to quit.
        private let killed = Locked(false)

        private init(connection: ChromiumConnection, process: ChromiumProcess?, temporaryProfile: URL?) {
            self.connection = connection
            self.process = process
            self.temporaryProfile = temporaryProfile
        }

        /// Starts Chromium and waits until it answers.
        ///
        /// - Parameter options: How to start it. Default: ``ChromiumLaunchOptions/init(executable:wireFormat:headless:userDataDirectory:noSandbox:extraArguments:standardErrorPath:startupTimeout:loopbackOrigin:)``'s defaults.
        /// - Throws: `EngineError` with `EngineError.Code.launchFailed` when it cannot be
        ///   spawned or does not answer within ``ChromiumLaunchOptions/startupTimeout``.
        public static func launch(_ options: ChromiumLaunchOptions = ChromiumLaunchOptions()) async throws
            -> ChromiumBrowser
        {
            var profile = options.userDataDirectory
            var temporary: URL?
            if profile == nil {
                let directory = FileManager.default.temporaryDirectory
                    .appendingPathComponent("schemekit-chromium-\(UUID().uuidString)", isDirectory: true)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                profile = directory
                temporary = directory
            }
            var arguments = [options.executable]
            if options.headless { arguments.append("--headless") }
            arguments.append(options.wireFormat == .cbor ? "--remote-debugging-pipe=cbor" : "--remote-debugging-pipe")
            arguments += [
                "--user-data-dir=\(profile!.path)", "--no-first-run", "--no-default-browser-check",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--mute-audio", "--disable-gpu",
            ]
            if options.noSandbox ?? (geteuid() == 0) { arguments.append("--no-sandbox") }
            var loopback: LoopbackOriginServer?
            if options.loopbackOrigin, LoopbackPeers.isSupported {
                do {
                    loopback = try await LoopbackOriginServer.start()
                } catch {
                    if let temporary { try? FileManager.default.removeItem(at: temporary) }
                    throw EngineError(.launchFailed, "the loopback origin could not start: \(error)")
                }
                arguments += loopback?.chromiumArguments ?? []
            }
            arguments += options.extraArguments
            arguments.append("about:blank")

            let (process, descriptor): (ChromiumProcess, Int32)
            do {
                (process, descriptor) = try ChromiumProcess.spawn(
                    arguments: arguments, standardErrorPath: options.standardErrorPath)
            } catch {
                await loopback?.close()
                if let temporary { try? FileManager.default.removeItem(at: temporary) }
                throw error
            }
            loopback?.peers.setBrowser(process.pid)
            let connection = ChromiumConnection(wireFormat: options.wireFormat)
            connection.loopbackOrigin = loopback
            connection.attach(descriptor: descriptor)
            let browser = ChromiumBrowser(connection: connection, process: process, temporaryProfile: temporary)
            do {
                try await withDeadline(options.startupTimeout) {
                    _ = try await connection.send("Browser.getVersion")
                }
            } catch {
                // A Chromium that did not answer in time, or a launch given up (cancelled), is
                // killed at once rather than asked to quit; its profile goes with it.
                process.signal(SIGKILL)
                await browser.close()
                throw EngineError(.launchFailed, "Chromium did not answer: \(error)\(temporaryDirectoryHint())")
            }
            return browser
        }

        /// Why a Chromium that exits at once, printing nothing, may have done so: its singleton
        /// socket goes in `TMPDIR` (`$TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket`), and a
        /// Unix socket's path holds at most 107 bytes. Empty when `TMPDIR` is short enough.
        static func temporaryDirectoryHint(
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) -> String {
            guard var directory = environment["TMPDIR"], !directory.isEmpty else { return "" }
            while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
            let socket = directory + "/org.chromium.Chromium.XXXXXX/SingletonSocket"
            guard socket.utf8.count > 107 else { return "" }
            return
                " (TMPDIR is \(directory.utf8.count) bytes long: Chromium's singleton socket in it, \(socket), is longer than the 107 bytes a Unix socket's path may have, and Chromium exits; use a TMPDIR of at most 62 bytes)"
        }

        /// Attaches to a Chromium that someone else started, over its DevTools WebSocket: the
        /// `webSocketDebuggerUrl` of `http://HOST:PORT/json/version` (`ws://…/devtools/browser/<id>`),
        /// a Selenium Grid 4 session's `se:cdp`, or a browserless endpoint.
        ///
        /// Over a WebSocket the protocol is JSON, so bodies go base64-encoded in one message:
        /// a body that does not fit `maximumMessageSize` fails its request with
        /// `EngineError.Code.bodyTooLarge` naming the limit, and open-ended ranges are narrowed
        /// to fit, so media still plays. ``close()`` closes the pages this browser opened and the
        /// WebSocket, and never stops Chromium.
        ///
        /// - Parameters:
        ///   - url: The browser's DevTools WebSocket (`ws://`; `wss://` is refused).
        ///   - maximumMessageSize: The largest message either side may send, in bytes. Default: 16 MiB.
        ///   - timeout: The most connecting may take. Default: 20 seconds.
        /// - Throws: `EngineError.Code.launchFailed` naming the URL.
        public static func connect(
            to url: URL, maximumMessageSize: Int = 16 << 20, timeout: Duration = .seconds(20)
        ) async throws -> ChromiumBrowser {
            let connection = ChromiumConnection(wireFormat: .json)
            let socket = try await ChromiumWebSocket.open(
                url: url, maximumMessageSize: maximumMessageSize, timeout: timeout, connection: connection)
            connection.attach(transport: socket)
            let browser = ChromiumBrowser(connection: connection, process: nil, temporaryProfile: nil)
            do {
                try await withDeadline(timeout) {
                    _ = try await connection.send("Browser.getVersion")
                }
            } catch {
                await browser.close()
                throw EngineError(.launchFailed, "Chromium at \(url.absoluteString) did not answer: \(error)")
            }
            return browser
        }

        /// Opens a new page (a target) in a window of its own and attaches a flattened session to it.
        ///
        /// Every page gets its own window so that every page is visible: a second tab in one window
        /// would hide the first (a pool's warm page hid the page in use), and Chromium defers
        /// loading media in hidden pages, so an eager `<video>` never asked for its source.
        ///
        /// - Parameter url: The first URL. Default: `about:blank`.
        /// - Throws: `EngineError`.
        public func newPage(url: String = "about:blank") async throws -> ChromiumPage {
            let target = try await connection.send(CDP.CreateTarget(url: url, newWindow: true))
            openedTargets.withLock { _ = $0.insert(target.targetId) }
            return try await ChromiumPage.attach(to: target.targetId, connection: connection)
        }

        /// Chromium's version string (`Chrome/156.0.8078.79`).
        public func version() async throws -> String {
            try await connection.send("Browser.getVersion")["product"]?.stringValue ?? ""
        }

        /// Kills Chromium at once with `signal` (default `SIGKILL`), as a crash would; the connection
        /// then closes and every pending command throws `EngineError.Code.disconnected`. Does
        /// nothing to an attached Chromium.
        package func kill(signal: Int32 = SIGKILL) {
            guard let process else { return }
            if signal == SIGKILL { killed.withLock { $0 = true } }
            process.signal(signal)
        }

        /// Closes Chromium: `Browser.close`, then `SIGKILL` after two seconds; reaps the process and
        /// removes the temporary profile. An attached Chromium keeps running: the pages this browser
        /// opened are closed, then the WebSocket. Idempotent.
        public func close() async {
            guard let process else {
                let targets = openedTargets.withLock { targets in
                    defer { targets = [] }
                    return targets
                }
                let connection = self.connection
                _ = try? await withDeadline(.seconds(5)) {
                    for target in targets { _ = try? await connection.send(CDP.CloseTarget(targetId: target)) }
                }
                connection.close()
                return
            }
            if !connection.isClosed, !killed.withLock({ $0 }) {
                _ = try? await withDeadline(.seconds(2)) { try await self.connection.send("Browser.close") }
            }
            await process.terminate(after: .seconds(2))
            connection.close()
            await connection.loopbackOrigin?.close()
            if let temporaryProfile {
                Self.removeSingletonDirectory(of: temporaryProfile)
                await ProfileDirectory.remove(temporaryProfile)
            }
        }

        /// Removes the directory Chromium made in `TMPDIR` for the profile's singleton socket
        /// (`org.chromium.Chromium.XXXXXX`, named by the profile's `SingletonSocket` link). Chromium
        /// removes it when it quits; a killed one leaves it behind.
        private static func removeSingletonDirectory(of profile: URL) {
            let link = profile.appendingPathComponent("SingletonSocket").path
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link) else { return }
            let directory = URL(fileURLWithPath: target).deletingLastPathComponent()
            guard directory.lastPathComponent.hasPrefix("org.chromium.Chromium.") else { return }
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// Runs `body`, throwing `EngineError.Code.timedOut` when it takes longer than `limit`.
    func withDeadline<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws
        -> T
    {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw EngineError(.timedOut, "no answer within \(limit)")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
#endif
