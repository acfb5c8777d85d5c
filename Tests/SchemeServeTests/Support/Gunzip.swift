// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation

    /// gzip bodies inflated by tools from outside this package, the ones users' clients resemble:
    /// `gzip -dc` and Python's zlib (strict: one whole gzip member, nothing after it).
    enum Gunzip {
        struct Failure: Error, CustomStringConvertible {
            var description: String
        }

        /// `data` through `gzip -dc`.
        static func withGzipTool(_ data: Data) throws -> Data {
            try run(["gzip", "-dc"], input: data)
        }

        /// `data` through Python's `zlib.decompressobj(31)`; fails unless `data` is exactly one
        /// complete gzip member.
        static func withPython(_ data: Data) throws -> Data {
            let script = """
                import sys, zlib
                d = zlib.decompressobj(31)
                out = d.decompress(sys.stdin.buffer.read())
                if not d.eof or d.unused_data:
                    sys.exit("not exactly one complete gzip member")
                sys.stdout.buffer.write(out)
                """
            return try run(["python3", "-c", script], input: data)
        }

        /// Runs `command` (found on `PATH`) with `input` on standard input; its standard output.
        private static func run(_ command: [String], input: Data) throws -> Data {
            let directory = FileManager.default.temporaryDirectory.appending(path: "gunzip-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let (inURL, outURL, errURL) = (
                directory.appending(path: "in"), directory.appending(path: "out"), directory.appending(path: "err")
            )
            try input.write(to: inURL)
            _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = command
            process.standardInput = try FileHandle(forReadingFrom: inURL)
            process.standardOutput = try FileHandle(forWritingTo: outURL)
            process.standardError = try FileHandle(forWritingTo: errURL)
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                let message = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
                throw Failure(description: "\(command[0]) exited with \(process.terminationStatus): \(message)")
            }
            return try Data(contentsOf: outURL)
        }
    }
#endif
