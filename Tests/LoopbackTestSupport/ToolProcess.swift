public import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A built executable of this package run to its end as a user runs it, its output captured in
/// files (no pipe to fill).
public struct ToolProcess: Sendable {
    /// The exit status.
    public var status: Int32
    /// Everything it printed on standard output.
    public var stdout: String
    /// Everything it printed on standard error.
    public var stderr: String

    /// The last line of standard output (where `--json` prints its object).
    public var lastLine: String { stdout.split(separator: "\n").last.map(String.init) ?? "" }

    /// The executable `name` next to the test bundle (`.build/<config>/<name>`).
    public static func binary(_ name: String) -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Runs `name` (the built executable next to the test bundle, or `executable`) with
    /// `arguments`, and `environment` added to this process's, until it exits; killed (and an
    /// issue recorded) when it has not after `timeout` seconds (scaled under ThreadSanitizer).
    public static func run(
        _ name: String, _ arguments: [String], executable: URL? = nil, environment: [String: String] = [:],
        timeout: Double = 60
    ) throws -> ToolProcess {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(name)-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("stdout")
        let err = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = executable ?? binary(name)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        if !eventuallyBlocking(timeout: .seconds(timeout), { !process.isRunning }) {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            Issue.record("\(name) did not exit within \(timeout) s")
        }
        return ToolProcess(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}
