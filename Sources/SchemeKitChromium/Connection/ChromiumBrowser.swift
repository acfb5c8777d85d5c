#if Chromium
    public import Foundation

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
    /// process can connect. Always ``close()`` a browser: Chromium otherwise outlives it.
    public final class ChromiumBrowser: Sendable {
        /// The DevTools connection (the browser session and every flattened session).
        public let connection: ChromiumConnection
        /// Chromium's process id.
        public var processIdentifier: Int32 { process.pid }
        private let process: ChromiumProcess
        private let temporaryProfile: URL?

        private init(connection: ChromiumConnection, process: ChromiumProcess, temporaryProfile: URL?) {
            self.connection = connection
            self.process = process
            self.temporaryProfile = temporaryProfile
        }

        /// Starts Chromium and waits until it answers.
        ///
        /// - Parameter options: How to start it. Default: ``ChromiumLaunchOptions/init(executable:wireFormat:headless:userDataDirectory:noSandbox:extraArguments:standardErrorPath:startupTimeout:)``'s defaults.
        /// - Throws: ``ChromiumError`` with ``ChromiumError/Code/launchFailed`` when it cannot be
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
            arguments += options.extraArguments
            arguments.append("about:blank")

            let (process, descriptor): (ChromiumProcess, Int32)
            do {
                (process, descriptor) = try ChromiumProcess.spawn(
                    arguments: arguments, standardErrorPath: options.standardErrorPath)
            } catch {
                if let temporary { try? FileManager.default.removeItem(at: temporary) }
                throw error
            }
            let connection = ChromiumConnection(wireFormat: options.wireFormat)
            connection.attach(descriptor: descriptor)
            let browser = ChromiumBrowser(connection: connection, process: process, temporaryProfile: temporary)
            do {
                try await withDeadline(options.startupTimeout) {
                    _ = try await connection.send("Browser.getVersion")
                }
            } catch {
                await browser.close()
                throw ChromiumError(.launchFailed, "Chromium did not answer: \(error)")
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
        /// - Throws: ``ChromiumError``.
        public func newPage(url: String = "about:blank") async throws -> ChromiumPage {
            let target = try await connection.send(CDP.CreateTarget(url: url, newWindow: true))
            return try await ChromiumPage.attach(to: target.targetId, connection: connection)
        }

        /// Chromium's version string (`Chrome/156.0.8078.79`).
        public func version() async throws -> String {
            try await connection.send("Browser.getVersion")["product"]?.stringValue ?? ""
        }

        /// Kills Chromium at once with `signal` (default `SIGKILL`), as a crash would; the connection
        /// then closes and every pending command throws ``ChromiumError/Code/disconnected``.
        public func kill(signal: Int32 = SIGKILL) {
            process.signal(signal)
        }

        /// Closes Chromium: `Browser.close`, then `SIGKILL` after two seconds; reaps the process and
        /// removes the temporary profile. Idempotent.
        public func close() async {
            if !connection.isClosed {
                _ = try? await withDeadline(.seconds(2)) { try await self.connection.send("Browser.close") }
            }
            await process.terminate(after: .seconds(2))
            connection.close()
            if let temporaryProfile { try? FileManager.default.removeItem(at: temporaryProfile) }
        }
    }

    /// Runs `body`, throwing ``ChromiumError/Code/timedOut`` when it takes longer than `limit`.
    func withDeadline<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws
        -> T
    {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw ChromiumError(.timedOut, "no answer within \(limit)")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
#endif
