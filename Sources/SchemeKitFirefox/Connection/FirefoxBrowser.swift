#if Firefox
    public import Foundation
    import SchemeKit
    import SchemeKitBrowserSupport

    /// A Firefox driven over WebDriver BiDi: one it launched, or one it attached to.
    ///
    /// ```swift
    /// let browser = try await FirefoxBrowser.launch()
    /// let page = try await browser.newPage()
    /// try await page.navigate(to: "https://app.localhost/")
    /// await browser.close()
    /// ```
    ///
    /// ``launch(_:)`` starts `firefox-esr --headless --remote-debugging-port=0 --no-remote --profile
    /// <fresh profile> about:blank`, reads the WebSocket address Firefox prints on standard error,
    /// and starts a BiDi session (no geckodriver involved). A small watchdog kills that Firefox when
    /// this process ends without closing it, even on `SIGKILL`. ``connect(to:maximumMessageSize:timeout:)``
    /// attaches to a Firefox someone else started; closing it then closes only what this browser
    /// opened and never stops Firefox. Always ``close()`` a browser: a launched Firefox otherwise
    /// outlives it, and an attached one keeps its session (Firefox allows one at a time).
    public final class FirefoxBrowser: Sendable {
        /// The BiDi connection (the protocol client; not public API).
        package let connection: FirefoxConnection
        /// The Firefox version the session reported (`153.7.0`), or `""` when it did not say.
        public let version: String
        /// Firefox's process id, for a browser ``launch(_:)`` started; `nil` for an attached one.
        public var processIdentifier: Int32? { process?.firefox.withLock { $0 } }
        /// Whether this browser attached to a Firefox it did not start (and will not stop).
        package var isAttached: Bool { process == nil }
        private let process: FirefoxProcess?
        private let temporaryDirectory: URL?
        /// Whether ``close()`` ends the session (it does when this browser started it).
        private let ownsSession: Bool
        /// The browsing contexts this browser opened and has not closed.
        let openedContexts = Locked(Set<String>())
        /// Whether ``kill(signal:)`` was used: ``close()`` then does not ask a dead browser to quit.
        private let killed = Locked(false)

        private init(
            connection: FirefoxConnection, version: String, process: FirefoxProcess?, temporaryDirectory: URL?,
            ownsSession: Bool
        ) {
            self.connection = connection
            self.version = version
            self.process = process
            self.temporaryDirectory = temporaryDirectory
            self.ownsSession = ownsSession
        }

        /// Starts Firefox and a WebDriver BiDi session.
        ///
        /// - Parameter options: How to start it. Default: ``FirefoxLaunchOptions/init(executable:headless:profileDirectory:extraArguments:standardErrorPath:startupTimeout:maximumMessageSize:loopbackOrigin:)``'s defaults.
        /// - Throws: `EngineError` with `EngineError.Code.launchFailed` when it cannot be
        ///   spawned, exits, or does not open BiDi within ``FirefoxLaunchOptions/startupTimeout``.
        public static func launch(_ options: FirefoxLaunchOptions = FirefoxLaunchOptions()) async throws
            -> FirefoxBrowser
        {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("schemekit-firefox-\(UUID().uuidString)", isDirectory: true)
            let profile = options.profileDirectory ?? directory.appendingPathComponent("profile", isDirectory: true)
            try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let errorPath = options.standardErrorPath ?? directory.appendingPathComponent("stderr.log").path
            let offset =
                ((try? FileManager.default.attributesOfItem(atPath: errorPath)[.size]) as? NSNumber)?.uint64Value ?? 0
            var loopback: LoopbackOriginServer?
            if options.loopbackOrigin, LoopbackPeers.isSupported {
                do {
                    loopback = try await LoopbackOriginServer.start()
                    // Firefox never sends `localhost` names to a proxy unless its profile lets it.
                    let preferences = profile.appendingPathComponent("user.js")
                    let preference = #"user_pref("network.proxy.allow_hijacking_localhost", true);"#
                    var text = (try? String(contentsOf: preferences, encoding: .utf8)) ?? ""
                    if !text.contains(preference) {
                        text += (text.isEmpty || text.hasSuffix("\n") ? "" : "\n") + preference + "\n"
                        try text.write(to: preferences, atomically: true, encoding: .utf8)
                    }
                } catch {
                    await loopback?.close()
                    try? FileManager.default.removeItem(at: directory)
                    throw EngineError(.launchFailed, "the loopback origin could not start: \(error)")
                }
            }
            var arguments = [options.executable]
            if options.headless { arguments.append("--headless") }
            arguments += ["--remote-debugging-port=0", "--no-remote", "--profile", profile.path]
            arguments += options.extraArguments
            arguments.append("about:blank")
            let process: FirefoxProcess
            do {
                process = try FirefoxProcess.spawn(arguments: arguments, standardErrorPath: errorPath)
            } catch {
                await loopback?.close()
                try? FileManager.default.removeItem(at: directory)
                throw error
            }
            // The watchdog's tree: Firefox and every process it starts.
            loopback?.peers.setBrowser(process.group)
            do {
                let started = ContinuousClock.now
                let address = try await process.waitForBiDiAddress(
                    in: errorPath, from: offset, timeout: options.startupTimeout)
                let url = address.appendingPathComponent("session")
                let remaining = max(.seconds(1), options.startupTimeout - (ContinuousClock.now - started))
                let connection = try await FirefoxConnection.open(
                    url: url, maximumMessageSize: options.maximumMessageSize, timeout: remaining)
                var capabilities: BiDiValue = [:]
                if let loopback {
                    capabilities = [
                        "acceptInsecureCerts": true,
                        "proxy": ["proxyType": "pac", "proxyAutoconfigUrl": .string(loopback.proxyAutoConfigURL)],
                    ]
                    connection.loopbackOrigin = loopback
                }
                let version = try await startSession(on: connection, capabilities: capabilities, timeout: remaining)
                return FirefoxBrowser(
                    connection: connection, version: version, process: process, temporaryDirectory: directory,
                    ownsSession: true)
            } catch {
                process.signal(SIGKILL)
                await process.terminate(after: .seconds(2))
                await loopback?.close()
                var failure = error as? EngineError ?? EngineError(.launchFailed, "\(error)")
                if options.standardErrorPath == nil {
                    // The log goes with the directory: say what it said instead of where it was.
                    failure.message = failure.message.replacingOccurrences(of: " (see \(errorPath))", with: "")
                    if let output = Self.lastLines(of: errorPath) { failure.message += "; Firefox printed: \(output)" }
                }
                await ProfileDirectory.remove(directory)
                throw failure
            }
        }

        /// The last few non-empty lines of the file at `path` (at most 2 KiB), joined by " | ";
        /// `nil` when it is empty or cannot be read.
        private static func lastLines(of path: String, count: Int = 5) -> String? {
            guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
            defer { try? handle.close() }
            let size = (try? handle.seekToEnd()) ?? 0
            try? handle.seek(toOffset: size > 2048 ? size - 2048 : 0)
            let text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
            let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("SchemeKit: Firefox pid ") }
            return lines.isEmpty ? nil : lines.suffix(count).joined(separator: " | ")
        }

        /// Attaches to a Firefox that someone else started with `--remote-debugging-port`.
        ///
        /// A URL ending in `/session` (what Firefox prints, plus `/session`) starts a new BiDi
        /// session, which ``close()`` ends; a URL naming a session (`ws://…/session/<id>`, such as a
        /// grid's `se:bidi`) joins that one, and ``close()`` leaves it to its owner. Either way
        /// ``close()`` closes only the pages this browser opened and never stops Firefox.
        ///
        /// - Parameters:
        ///   - url: The WebDriver BiDi WebSocket (`ws://127.0.0.1:9222/session`).
        ///   - maximumMessageSize: The largest WebSocket message either side may send, in bytes
        ///     (response bodies go base64-encoded in one message). Default: 16 MiB.
        ///   - timeout: The most connecting and starting the session may take. Default: 20 seconds.
        /// - Throws: `EngineError.Code.connectFailed` naming the URL, or why the session could not
        ///   start (Firefox allows one session at a time).
        public static func connect(
            to url: URL, maximumMessageSize: Int = 16 << 20, timeout: Duration = .seconds(20)
        ) async throws -> FirefoxBrowser {
            let connection = try await FirefoxConnection.open(
                url: url, maximumMessageSize: maximumMessageSize, timeout: timeout)
            let joinsSession = url.pathComponents.count > 2 && url.pathComponents[1] == "session"
            do {
                let version =
                    joinsSession ? "" : try await startSession(on: connection, capabilities: [:], timeout: timeout)
                return FirefoxBrowser(
                    connection: connection, version: version, process: nil, temporaryDirectory: nil,
                    ownsSession: !joinsSession)
            } catch {
                connection.close()
                throw error
            }
        }

        /// `session.new` with `capabilities` (always matched); returns the browser's version.
        private static func startSession(
            on connection: FirefoxConnection, capabilities: BiDiValue, timeout: Duration
        ) async throws -> String {
            do {
                let result = try await withDeadline(
                    timeout, orThrow: { EngineError(.timedOut, "no answer to session.new within \(timeout)") }
                ) { try await connection.send("session.new", ["capabilities": ["alwaysMatch": capabilities]]) }
                return result["capabilities"]?["browserVersion"]?.stringValue ?? ""
            } catch let error as EngineError where error.protocolCode == "session not created" {
                throw EngineError(
                    .connectFailed,
                    "Firefox refused a new WebDriver BiDi session (\(error.message)): it allows one at a time; end the other client's session or start another Firefox",
                    protocolCode: error.protocolCode)
            }
        }

        /// Opens a new page: a top-level browsing context in a window of its own.
        ///
        /// Every page gets its own window so that every page is visible: a second tab in one window
        /// hides the first (`document.visibilityState` becomes `hidden`, and hidden pages are throttled).
        ///
        /// - Parameter url: The first URL. Default: `about:blank`.
        /// - Throws: `EngineError`.
        public func newPage(url: String = "about:blank") async throws -> FirefoxPage {
            let created = try await connection.send("browsingContext.create", ["type": "window"])
            guard let context = created["context"]?.stringValue else {
                throw EngineError(.malformedMessage, "browsingContext.create returned no context")
            }
            openedContexts.withLock { _ = $0.insert(context) }
            // The page's own document changes and closing, so that an `evaluate` whose page goes
            // away fails instead of waiting for a value that can no longer come.
            try await connection.send(
                "session.subscribe",
                [
                    "events": .array(FirefoxPage.lifecycleEvents.sorted().map { .string($0) }),
                    "contexts": [.string(context)],
                ])
            let page = FirefoxPage(context: context, browser: self)
            if url != "about:blank" { try await page.navigate(to: url) }
            return page
        }

        /// Kills a Firefox that ``launch(_:)`` started, at once, with `signal` (default `SIGKILL`),
        /// as a crash would; the connection then closes and every pending command throws
        /// `EngineError.Code.disconnected`. Does nothing to an attached Firefox.
        package func kill(signal: Int32 = SIGKILL) {
            guard let process else { return }
            if signal == SIGKILL { killed.withLock { $0 = true } }
            process.signal(signal)
        }

        /// Closes the browser. Idempotent.
        ///
        /// A launched Firefox is asked to quit (`browser.close`), killed after two seconds if it has
        /// not, reaped, and its temporary profile removed. An attached one keeps running: the pages
        /// this browser opened are closed, the session ends if this browser started it, and the
        /// WebSocket closes.
        public func close() async {
            let connection = self.connection
            if let process {
                if !connection.isClosed, !killed.withLock({ $0 }) {
                    _ = try? await withDeadline(.seconds(2), orThrow: { EngineError(.timedOut, "browser.close") }) {
                        try await connection.send("browser.close")
                    }
                }
                await process.terminate(after: .seconds(2))
                connection.close()
                await connection.loopbackOrigin?.close()
                if let temporaryDirectory { await ProfileDirectory.remove(temporaryDirectory) }
                return
            }
            let contexts = openedContexts.withLock { contexts in
                defer { contexts = [] }
                return contexts
            }
            let ownsSession = self.ownsSession
            _ = try? await withDeadline(.seconds(5), orThrow: { EngineError(.timedOut, "closing") }) {
                for context in contexts {
                    _ = try? await connection.send("browsingContext.close", ["context": .string(context)])
                }
                if ownsSession { _ = try? await connection.send("session.end") }
            }
            connection.close()
        }
    }
#endif
