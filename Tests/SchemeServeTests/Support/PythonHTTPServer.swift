// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import Testing

    /// `python3 -m http.server` on 127.0.0.1 and a free port, serving a directory: a second, real
    /// HTTP server for the tests that reach an origin (`--fallback`, `package install <url>`).
    final class PythonHTTPServer {
        let process = Process()
        let port: Int

        /// Starts the server and waits (at most 15 s) for the line naming its port.
        init(serving directory: URL) throws {
            process.executableURL = URL(filePath: "/usr/bin/env")
            process.arguments = [
                "python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory",
                directory.path(percentEncoded: false),
            ]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            var line = Data()
            let fd = out.fileHandleForReading.fileDescriptor
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let deadline = Date.now.addingTimeInterval(15)
            while Date.now < deadline, poll(&pollFD, 1, 200) >= 0 {
                var byte: UInt8 = 0
                if pollFD.revents != 0 {
                    guard read(fd, &byte, 1) == 1, byte != 10 else { break }
                    line.append(byte)
                }
            }
            // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
            let words = String(decoding: line, as: UTF8.self).split(separator: " ")
            guard let index = words.firstIndex(of: "port"), index + 1 < words.count, let port = Int(words[index + 1])
            else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw RawHTTP.Failure(
                    description: "python3 -m http.server did not start: \(words.joined(separator: " "))")
            }
            self.port = port
        }

        /// `http://127.0.0.1:<port>`.
        var origin: String { "http://127.0.0.1:\(port)" }

        /// Kills the server and waits for it.
        func stop() {
            guard process.isRunning else { return }
            // SIGKILL: a child spawned from a Dispatch worker thread inherits its blocked SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        deinit { stop() }
    }
#endif
