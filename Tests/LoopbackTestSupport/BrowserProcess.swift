public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A headless browser started as a process of its own with a remote-debugging port, the way a
/// grid node or a user starts one: what the `--connect` and `connect(to:)` tests attach to.
/// SchemeKit never starts or stops it; the test does.
public final class BrowserProcess: Sendable {
    /// Which browser, and how it announces its WebSocket.
    public enum Kind: Sendable {
        /// `chromium --remote-debugging-port=0`: `DevTools listening on ws://…/devtools/browser/<id>`.
        case chromium
        /// `firefox-esr --remote-debugging-port=0`: `WebDriver BiDi listening on ws://HOST:PORT`.
        case firefox
    }

    /// The browser did not start or did not print its address.
    public struct LaunchError: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// The WebSocket to attach to: the DevTools browser endpoint, or Firefox's `…/session`.
    public let webSocketURL: URL
    private let process: Process
    private let directory: URL

    /// Starts the browser with a fresh profile and waits for its address: at most `timeout`
    /// seconds (scaled under ThreadSanitizer, as ``eventuallyBlocking(timeout:_:)`` scales), or
    /// until the browser exited without printing it.
    public init(_ kind: Kind, timeout: Double = 30) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("browser-process-\(UUID())")
        let profile = directory.appendingPathComponent("profile")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let log = directory.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let environment = ProcessInfo.processInfo.environment
        var arguments: [String]
        let marker: String
        switch kind {
        case .chromium:
            arguments = [
                environment["SCHEMEKIT_CHROMIUM"] ?? "chromium", "--headless", "--remote-debugging-port=0",
                "--user-data-dir=\(profile.path)", "--no-first-run", "--disable-gpu",
            ]
            if geteuid() == 0 { arguments.append("--no-sandbox") }
            marker = "DevTools listening on "
        case .firefox:
            arguments = [
                environment["SCHEMEKIT_FIREFOX"] ?? "firefox-esr", "--headless", "--remote-debugging-port=0",
                "--no-remote", "--profile", profile.path,
            ]
            marker = "WebDriver BiDi listening on "
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments + ["about:blank"]
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The address, once the browser printed it to its log (or it exited without).
        var address: URL?
        _ = eventuallyBlocking(timeout: .seconds(timeout)) {
            let text = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
            if let range = text.range(of: marker) {
                let printed = String(text[range.upperBound...].prefix { !$0.isWhitespace })
                address = kind == .firefox ? URL(string: "\(printed)/session") : URL(string: printed)
            }
            return address != nil || !process.isRunning
        }
        guard let address else {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(at: directory)
            throw LaunchError(description: "\(arguments[0]) did not print its address within \(timeout) s")
        }
        self.webSocketURL = address
        self.process = process
        self.directory = directory
    }

    /// Whether the browser is still running.
    public var isRunning: Bool { process.isRunning }

    /// Ends the browser (SIGTERM, then SIGKILL when it has not exited within five seconds), waits
    /// for it, removes its profile.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            if !eventuallyBlocking(timeout: .seconds(5), { !process.isRunning }) {
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
