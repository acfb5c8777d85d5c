// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    import Crypto
    import Foundation
    import ZIPFoundation

    /// A package's content, and ways to turn it into a zip archive.
    struct TestPackage: Sendable {
        /// Files by relative path.
        var files: [String: Data]

        /// A small web app whose content names `version`, with a binary asset and a nested directory.
        static func webApp(_ version: String) -> TestPackage {
            let image = randomData(40_000)
            return TestPackage(files: [
                "index.html": Data("<!doctype html><title>app \(version)</title><script src=js/app.js></script>".utf8),
                "js/app.js": Data("console.log('app \(version)');\n".utf8),
                "css/site.css": Data(String(repeating: "body { color: #123; }\n", count: 500).utf8),
                "img/logo.bin": image,
            ])
        }

        /// A zip made with ZIPFoundation's `Archive` API (deflate), entries in the given order
        /// (`extra` entries appended verbatim, for duplicates and hostile names).
        func zip(to url: URL, extra: [(path: String, data: Data)] = [], directories: [String] = []) throws {
            let archive = try Archive(url: url, accessMode: .create)
            for directory in directories {
                try archive.addEntry(
                    with: directory, type: .directory, uncompressedSize: Int64(0), provider: { _, _ in Data() })
            }
            for (path, data) in files.sorted(by: { $0.key < $1.key }) + extra {
                try archive.addEntry(
                    with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate,
                    provider: { position, size in data.subdata(in: Int(position)..<Int(position) + size) })
            }
        }

        /// Writes the files under `directory` (for the `zip` tool).
        func write(under directory: URL) throws {
            for (path, data) in files {
                let url = directory.appending(path: path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: url)
            }
        }
    }

    /// `count` random bytes (incompressible content).
    func randomData(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        var data = Data(count: (count + 7) / 8 * 8)
        data.withUnsafeMutableBytes { buffer in
            let words = buffer.bindMemory(to: UInt64.self)
            for index in words.indices { words[index] = generator.next() }
        }
        return data.prefix(count)
    }

    /// The lowercase hex SHA-256 and the size of a file.
    func digest(of url: URL) throws -> (sha256: String, size: Int64) {
        let data = try Data(contentsOf: url)
        return (SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined(), Int64(data.count))
    }

    /// Runs a command line tool to completion (at most 60 s) and returns its exit status.
    @discardableResult
    func run(_ tool: String, _ arguments: [String], in directory: URL? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The deadline: a tool still running after 60 s is terminated (catches a hang).
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { [process] in
            if process.isRunning { process.terminate() }
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
#endif
