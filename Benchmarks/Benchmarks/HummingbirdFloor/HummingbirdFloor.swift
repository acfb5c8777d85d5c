import Foundation
import Hummingbird

/// The floor for any Hummingbird-based server on this machine: a bare `Application` answering
/// `GET /<name>` with the bytes of a file read into memory once at start-up, with no file I/O,
/// no checks and no headers beyond Content-Type and Content-Length.
///
/// `Benchmarks/serve.sh` runs it next to `schemeserve` and nginx so the ratios can be read
/// against what the HTTP layer alone costs.
///
///     hummingbird-floor <directory> <port>
@main
struct HummingbirdFloor {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let port = Int(arguments[2]) else {
            FileHandle.standardError.write(Data("usage: hummingbird-floor <directory> <port>\n".utf8))
            exit(64)
        }
        let directory = URL(filePath: arguments[1], directoryHint: .isDirectory)
        let router = Router()
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false)) {
            let buffer = ByteBuffer(bytes: try Data(contentsOf: directory.appending(path: name)))
            router.get(RouterPath(name)) { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "application/octet-stream"],
                    body: ResponseBody(byteBuffer: buffer))
            }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }
}
