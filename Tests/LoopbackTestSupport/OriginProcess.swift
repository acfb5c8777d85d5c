import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A Python fixture server of `Tests/Fixtures/` running on 127.0.0.1: `origin.py`, the real HTTP
/// origin the network, preload and recording tests talk to, or `conformance_api.py`, the
/// conformance page's backend. It exits when ``stop()`` is called or when our end of its stdin
/// closes (this process ends), and `origin.py` also after `maxLifetime` seconds, so it never
/// outlives the tests.
public final class OriginProcess: Sendable {
    /// The origin did not start or did not report its port.
    public struct LaunchError: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// The port it listens on.
    public let port: Int
    private let process: Process
    private let stdin: Pipe

    /// Starts `origin.py` and waits (at most 15 s) for the first line it prints: its port.
    public convenience init(maxLifetime: Int) throws {
        try self.init(script: "origin.py", arguments: ["--max-lifetime", "\(maxLifetime)"])
    }

    /// Starts `Tests/Fixtures/<script>` with `arguments` and waits (at most 15 s) for the first line
    /// it prints: its port.
    public init(script name: String, arguments: [String] = []) throws {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        // The first line is the port: read it with poll(2), bounded.
        let descriptor = stdout.fileHandleForReading.fileDescriptor
        var line = Data()
        let deadline = Date.now.addingTimeInterval(15)
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while Date.now < deadline {
            guard poll(&request, 1, 200) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(descriptor, &byte, 1) == 1, byte != 10 else { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw LaunchError(description: "\(name) did not report its port")
        }
        self.port = port
        self.process = process
        self.stdin = stdin
    }

    /// Ends the origin and waits (bounded) until it is gone.
    public func stop() {
        try? stdin.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        _ = eventuallyBlocking(timeout: .seconds(10)) { !process.isRunning }
    }

    deinit { stop() }
}
