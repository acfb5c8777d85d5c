import Foundation
import SchemeKit

/// Playwright's `route.fulfill` serving a directory at a virtual https origin, in the system
/// Chromium: `Benchmarks/playwright-peer.py` run as a child process and driven one JSON line at a
/// time (the benchmark's peer for "the interception users pick today").
final class PlaywrightPeer: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    /// Bytes read from the child and not yet split into lines; used by one evaluation at a time.
    private var buffer = Data()

    /// Starts the peer on `directory` and waits for its page to show the origin's blank page.
    init(script: String, directory: URL, origin: String = "https://app.localhost") throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, directory.path, origin]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let first = try readLine()
        guard first.contains("\"ready\"") else {
            throw CocoaError(
                .featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "playwright peer: \(first)"])
        }
    }

    /// Evaluates `expression` in the peer's page (Playwright awaits a Promise).
    func evaluate(_ expression: String) async throws -> JavaScriptValue {
        let request = try JSONSerialization.data(withJSONObject: ["evaluate": expression]) + Data("\n".utf8)
        let line: String = try await withCheckedThrowingContinuation { continuation in
            // The child answers when the page has; wait for it on a thread of its own, not on the
            // cooperative pool the adapters under measurement use.
            Thread {
                continuation.resume(
                    with: Result {
                        try self.input.fileHandleForWriting.write(contentsOf: request)
                        return try self.readLine()
                    })
            }.start()
        }
        let reply = try JavaScriptValue(json: Data(line.utf8))
        if let error = reply["error"]?.stringValue {
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: error])
        }
        return reply["value"] ?? .null
    }

    /// Ends the peer (EOF on its input closes its browser) and waits for it.
    func close() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown) }
            buffer.append(chunk)
        }
    }
}
