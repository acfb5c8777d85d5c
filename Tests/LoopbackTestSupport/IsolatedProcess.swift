import Foundation
public import Testing

/// Runs a test in a process of its own, for a test that measures the whole process (its peak
/// resident size): in one `swift test` process every suite runs beside it and their memory counts
/// too, so the measurement would say nothing about the code under test.
///
/// ```swift
/// @Test func staysWithinTheBound() async throws {
///     guard try await IsolatedProcess.isInside(test: "staysWithinTheBound") else { return }
///     // … measure
/// }
/// ```
///
/// The test binary is started again with `--filter` naming the one test and
/// `SCHEMEKIT_ISOLATED=1`; its output is printed, and its failure fails the calling test. Where the
/// binary cannot be started again (not Linux), or when the caller already runs isolated
/// (`Scripts/test.sh` runs these suites alone), the test runs in place. The child is waited for on a
/// thread of its own, never on one of the cooperative pool's few threads, which the suites still
/// running in this process need.
public enum IsolatedProcess {
    /// The environment variable set in the child (and by `Scripts/test.sh` for suites it runs alone).
    public static let variable = "SCHEMEKIT_ISOLATED"

    /// `true` when the caller should run its body here; `false` when it ran in a child process,
    /// whose result was recorded.
    public static func isInside(test name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> Bool
    {
        #if os(Linux)
            guard ProcessInfo.processInfo.environment[variable] == nil else { return true }
            let binary = URL(fileURLWithPath: CommandLine.arguments[0])
            guard binary.lastPathComponent.hasSuffix(".xctest") else { return true }
            let process = Process()
            process.executableURL = binary
            process.arguments = ["--filter", name, "--testing-library", "swift-testing"]
            var environment = ProcessInfo.processInfo.environment
            environment[variable] = "1"
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let (status, text) = await withCheckedContinuation { continuation in
                Thread {
                    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    continuation.resume(returning: (process.terminationStatus, text))
                }.start()
            }
            for line in text.split(separator: "\n")
            where line.contains("peak RSS") || line.contains("Stress:") || line.contains("recorded an issue")
                || line.contains("ThreadSanitizer")
            {
                print("[isolated] \(line)")
            }
            #expect(
                status == 0 && text.contains("Test run with 1 test"),
                "the isolated run of \(name) failed:\n\(text.suffix(4000))", sourceLocation: sourceLocation)
            return false
        #else
            return true
        #endif
    }
}
