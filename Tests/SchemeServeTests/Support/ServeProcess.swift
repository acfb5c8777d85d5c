// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import Synchronization

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The built `schemeserve` binary, started as a child process.
    final class ServeProcess: Sendable {
        let process: Process
        let firstLine: String
        let port: Int
        private let stderrPipe: Pipe
        private let stderrText = Locked("")

        /// The binary next to the test bundle (`.build/<config>/schemeserve`).
        static var binary: URL {
            let candidates = [
                URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent(),
                URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent()
                    .deletingLastPathComponent().appending(path: ".build/debug"),
            ]
            for directory in candidates {
                var url = directory
                // Inside an .xctest bundle on some platforms.
                while url.path != "/" {
                    let candidate = url.appending(path: "schemeserve")
                    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                    url.deleteLastPathComponent()
                    if url.lastPathComponent == ".build" { break }
                }
            }
            return candidates[1].appending(path: "schemeserve")
        }

        /// Runs the binary to completion (for usage errors): exit code, stdout, stderr.
        static func runToEnd(_ arguments: [String], timeout: Double = 20) throws -> (Int32, String, String) {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            guard eventuallyBlocking(timeout: .seconds(timeout), { !process.isRunning }) else {
                process.terminate()
                process.waitUntilExit()
                throw RawHTTP.Failure(description: "schemeserve did not exit")
            }
            let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (process.terminationStatus, stdout, stderr)
        }

        /// Starts `schemeserve <arguments> --port 0` and waits (bounded) for its first stdout line;
        /// with `fileLimit`, under `ulimit -n fileLimit`, and with `cpus`, under `taskset -c cpus`
        /// (through `sh`, which then `exec`s it); with `accessLog`, the access log on (off by default);
        /// with `environment`, those variables set over the test's own.
        init(
            _ arguments: [String], timeout: Double = 30, fileLimit: Int? = nil, cpus: String? = nil,
            accessLog: Bool = false, environment: [String: String] = [:]
        ) throws {
            let process = Process()
            if !environment.isEmpty {
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            }
            let full = arguments + ["--port", "0"] + (accessLog ? [] : ["--no-access-log"])
            if fileLimit != nil || cpus != nil {
                let limit = fileLimit.map { "ulimit -n \($0) && " } ?? ""
                let pin = cpus.map { "taskset -c \($0) " } ?? ""
                process.executableURL = URL(filePath: "/bin/sh")
                process.arguments = ["-c", "\(limit)exec \(pin)\"$0\" \"$@\"", Self.binary.path] + full
            } else {
                process.executableURL = Self.binary
                process.arguments = full
            }
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            self.process = process
            self.stderrPipe = err
            let fd = out.fileHandleForReading.fileDescriptor
            var line = Data()
            let deadline = Date.now.addingTimeInterval(timeout)
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            while Date.now < deadline {
                guard poll(&pollFD, 1, 200) > 0 else { continue }
                var byte: UInt8 = 0
                guard read(fd, &byte, 1) == 1 else { break }
                if byte == 10 { break }
                line.append(byte)
            }
            firstLine = String(decoding: line, as: UTF8.self)
            guard let range = firstLine.range(of: #":(\d+)/$"#, options: .regularExpression),
                let port = Int(firstLine[range].dropFirst().dropLast())
            else {
                process.terminate()
                throw RawHTTP.Failure(description: "no 'Serving …' line: \(firstLine)")
            }
            self.port = port
        }

        /// What the process wrote to standard error so far, waiting up to `timeout` seconds for
        /// `until` to hold of it.
        func standardError(until: (String) -> Bool, timeout: Double = 5) -> String {
            let fd = stderrPipe.fileHandleForReading.fileDescriptor
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let deadline = Date.now.addingTimeInterval(timeout)
            while !until(stderrText.withLock { $0 }), Date.now < deadline {
                guard poll(&pollFD, 1, 50) > 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(fd, &buffer, buffer.count)
                guard count > 0 else { break }
                stderrText.withLock { $0 += String(decoding: buffer[..<count], as: UTF8.self) }
            }
            return stderrText.withLock { $0 }
        }

        /// Sends `signal` and waits (bounded) for the exit; returns the exit status.
        @discardableResult
        func stop(signal: Int32 = SIGTERM, timeout: Double = 20) -> Int32? {
            if process.isRunning { kill(process.processIdentifier, signal) }
            guard eventuallyBlocking(timeout: .seconds(timeout), { !process.isRunning }) else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return nil
            }
            return process.terminationStatus
        }

        /// User plus system CPU time used so far, in seconds, from /proc.
        var cpuSeconds: Double? {
            guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
            return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }

        /// Peak resident memory (VmHWM) in KiB, from /proc.
        var peakResidentKiB: Int? {
            guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
            else {
                return nil
            }
            for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
                return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
            }
            return nil
        }

        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
            }
        }
    }
#endif
