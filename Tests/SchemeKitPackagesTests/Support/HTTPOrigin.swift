// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    import Foundation
    import SchemeKit

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// A real HTTP server on 127.0.0.1 serving a directory (Fixtures/http_origin.py), stopped by ``stop()``.
    final class HTTPOrigin: Sendable {
        let root: URL
        let port: Int
        private let process: Process
        private let input: Pipe

        init(serving root: URL) throws {
            guard let script = Bundle.module.url(forResource: "Fixtures/http_origin", withExtension: "py") else {
                throw CocoaError(.fileNoSuchFile)
            }
            let process = Process()
            let output = Pipe()
            let input = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script.path, root.path]
            process.standardOutput = output
            process.standardInput = input
            try process.run()
            // The first line is the port; end of output (a crash) ends the read.
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
            }
            guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
            else {
                process.terminate()
                throw CocoaError(.fileReadCorruptFile)
            }
            self.root = root
            self.port = port
            self.process = process
            self.input = input
        }

        /// The URL of `path` on this origin.
        func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

        func stop() {
            try? input.fileHandleForWriting.close()
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// A minimal ``SchemeHTTPClient`` over URLSession for the tests (the library's default client lives
    /// with the network fallback). It delivers the body in 64 KiB chunks.
    struct LoopbackHTTPClient: SchemeHTTPClient {
        func send(_ request: SchemeHTTPClientRequest) async throws -> SchemeHTTPClientResponse {
            var urlRequest = URLRequest(url: request.url)
            urlRequest.timeoutInterval = 30
            let (data, response) = try await URLSession.shared.data(for: urlRequest)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 500
            let body = AsyncThrowingStream<Data, any Error> { continuation in
                var offset = 0
                while offset < data.count {
                    let end = min(offset + 65_536, data.count)
                    continuation.yield(data.subdata(in: offset..<end))
                    offset = end
                }
                continuation.finish()
            }
            return SchemeHTTPClientResponse(head: HTTPResponse(status: .init(code: status)), body: body)
        }
    }
#endif
