// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    import Foundation
    import SchemeKit
    import Synchronization

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

        /// The most a helper may run: past it, it is terminated (which ends its output and its wait).
        static let timeLimit: TimeInterval = 120

        /// A helper started by ``start(_:)``: its output as it comes, its standard input, its exit.
        final class Running: Sendable {
            private struct State {
                var output = Data()
                var errorOutput = Data()
                var outputEnded = false
                var errorOutputEnded = false
                var exited = false
                /// Callers of ``line(startingWith:)`` and ``outcome()``, resumed when their answer is known.
                var lineWaiters: [(prefix: String, continuation: CheckedContinuation<String?, Never>)] = []
                var endWaiters: [CheckedContinuation<Void, Never>] = []

                var ended: Bool { outputEnded && errorOutputEnded && exited }

                /// The first whole output line starting with `prefix`.
                func line(startingWith prefix: String) -> String? {
                    let text = String(decoding: output, as: UTF8.self)
                    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                    return lines.first { $0.hasPrefix(prefix) }.map(String.init)
                }
            }

            let process: Process
            private let input: Pipe
            private let state = Locked(State())

            fileprivate init(_ arguments: [String]) throws {
                process = Process()
                process.executableURL = HelperProcess.executable
                process.arguments = arguments
                input = Pipe()
                let output = Pipe()
                let errors = Pipe()
                process.standardInput = input
                process.standardOutput = output
                process.standardError = errors
                try process.run()
                // Events, never a poll: a thread of its own reads each output to its end (a
                // blocking read returns as data comes), then the exit is collected.
                let (outputHandle, errorsHandle) = (output.fileHandleForReading, errors.fileHandleForReading)
                let outputRead = Thread { [self] in
                    Self.read(outputHandle) { data in self.update { $0.output.append(data) } }
                    update { $0.outputEnded = true }
                }
                let errorsRead = Thread { [self, process] in
                    Self.read(errorsHandle) { data in self.update { $0.errorOutput.append(data) } }
                    // Both outputs end when the helper does: its exit is at hand.
                    process.waitUntilExit()
                    update {
                        $0.errorOutputEnded = true
                        $0.exited = true
                    }
                }
                outputRead.start()
                errorsRead.start()
                // The deadline: a helper still running then is terminated (catches a hang).
                DispatchQueue.global().asyncAfter(deadline: .now() + HelperProcess.timeLimit) { [process] in
                    if process.isRunning { process.terminate() }
                }
            }

            /// Reads `handle` until its end, handing each chunk to `chunk` as it comes.
            private static func read(_ handle: FileHandle, _ chunk: (Data) -> Void) {
                while true {
                    let data = handle.availableData
                    if data.isEmpty { return }
                    chunk(data)
                }
            }

            /// Changes the state, then resumes every waiter whose answer it now knows.
            private func update(_ change: (inout State) -> Void) {
                let (lines, ends) = state.withLock { state in
                    change(&state)
                    var lines: [(CheckedContinuation<String?, Never>, String?)] = []
                    let snapshot = state
                    state.lineWaiters.removeAll { waiter in
                        if let line = snapshot.line(startingWith: waiter.prefix) {
                            lines.append((waiter.continuation, line))
                            return true
                        }
                        guard snapshot.outputEnded else { return false }
                        lines.append((waiter.continuation, nil))
                        return true
                    }
                    guard state.ended else { return (lines, [CheckedContinuation<Void, Never>]()) }
                    defer { state.endWaiters = [] }
                    return (lines, state.endWaiters)
                }
                for (continuation, line) in lines { continuation.resume(returning: line) }
                for continuation in ends { continuation.resume() }
            }

            /// Waits for the first output line starting with `prefix`; `nil` when the output ends without one.
            func line(startingWith prefix: String) async -> String? {
                await withCheckedContinuation { continuation in
                    let known = state.withLock { state -> String?? in
                        if let line = state.line(startingWith: prefix) { return .some(line) }
                        if state.outputEnded { return .some(nil) }
                        state.lineWaiters.append((prefix, continuation))
                        return nil
                    }
                    if let known { continuation.resume(returning: known) }
                }
            }

            /// Writes a line to the helper's standard input (its go-ahead).
            func send(_ line: String) throws {
                try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
            }

            /// Waits for the exit and the end of both outputs (the helper is terminated after
            /// ``HelperProcess/timeLimit``), then says how it ended.
            func outcome() async -> Outcome {
                await withCheckedContinuation { continuation in
                    let ended = state.withLock { state in
                        if !state.ended { state.endWaiters.append(continuation) }
                        return state.ended
                    }
                    if ended { continuation.resume() }
                }
                try? input.fileHandleForWriting.close()
                let (output, errorOutput) = state.withLock { ($0.output, $0.errorOutput) }
                return Outcome(
                    exitStatus: process.terminationStatus, killedBySignal: process.terminationReason == .uncaughtSignal,
                    output: String(decoding: output, as: UTF8.self),
                    errorOutput: String(decoding: errorOutput, as: UTF8.self))
            }
        }

        /// Starts the helper; ``Running/outcome()`` collects it.
        static func start(_ arguments: [String]) throws -> Running {
            try Running(arguments)
        }

        static func run(_ arguments: [String]) async throws -> Outcome {
            try await start(arguments).outcome()
        }
    }
#endif
