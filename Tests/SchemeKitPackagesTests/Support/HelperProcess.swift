// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    import Foundation

    /// Runs the `PackageInstallHelper` executable (built next to the test bundle).
    enum HelperProcess {
        /// How a run ended.
        struct Outcome {
            var exitStatus: Int32
            var killedBySignal: Bool
            var output: String
            var errorOutput: String

            /// The value of the first output line starting with `key `.
            func value(_ key: String) -> String? {
                output.split(separator: "\n").first { $0.hasPrefix(key + " ") }.map {
                    String($0.dropFirst(key.count + 1))
                }
            }
        }

        static var executable: URL {
            Bundle.module.bundleURL.deletingLastPathComponent().appending(path: "PackageInstallHelper")
        }

        /// Starts the helper; ``wait(_:)`` collects it.
        static func start(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            return (process, output, errors)
        }

        /// Waits at most 120 s for the helper to end (killing it after that) and collects its output.
        static func wait(_ started: (Process, Pipe, Pipe)) async throws -> Outcome {
            let (process, output, errors) = started
            let deadline = ContinuousClock.now + .seconds(120)
            while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return Outcome(
                exitStatus: process.terminationStatus, killedBySignal: process.terminationReason == .uncaughtSignal,
                output: out, errorOutput: err)
        }

        static func run(_ arguments: [String]) async throws -> Outcome {
            try await wait(start(arguments))
        }
    }
#endif
