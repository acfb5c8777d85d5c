import Foundation
import SchemeKit
import SchemeKitTesting

/// The `write-through` mode: fetches bodies through a ``NetworkFallbackHandler`` with network
/// write-through in an endless loop, so a test can kill the process mid-write and check that
/// every file in place is complete.
///
/// `write-through <origin> <directory> <query> [files]` requests `app://x/wt/file-<n>.js` for
/// `n` in `0..<files` (default 4), over and over; the origin (`Tests/Fixtures/origin.py`) gets the
/// same path with `query` appended (`size=4194304&type=text/javascript`), which the request itself
/// cannot carry (a URL with a query is never stored). Prints `ready`, then `stored <n>` after each
/// response that finished.
enum WriteThroughWriter {
    /// Runs the mode; returns the exit status (it only returns on bad arguments).
    static func run(_ arguments: [String]) async -> Int32 {
        guard arguments.count >= 3, let origin = URL(string: arguments[0]) else {
            FileHandle.standardError.write(Data("write-through: <origin> <directory> <query> [files]\n".utf8))
            return 64
        }
        let files = arguments.count > 3 ? Int(arguments[3]) ?? 4 : 4
        let handler = NetworkFallbackHandler(
            origin: origin,
            client: QueryClient(base: URLSessionHTTPClient(), query: arguments[2]),
            configuration: .init(writeThrough: NetworkWriteThrough(directory: URL(fileURLWithPath: arguments[1])))
        )
        let registry = SchemeRegistry()
        do {
            try registry.register(handler, for: "app")
        } catch {
            FileHandle.standardError.write(Data("write-through: \(error)\n".utf8))
            return 1
        }
        let engine = ScriptedEngine(registry: registry, timeout: .seconds(60))
        say("ready")
        while true {
            for index in 0..<max(1, files) {
                guard let request = try? SchemeRequest("app://x/wt/file-\(index).js") else { return 1 }
                let result = await engine.run(request)
                if result.recording.isFinished { say("stored \(index)") }
            }
        }
    }

    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data("\(line)\n".utf8))
    }

    /// A client that sends every request with `query` (the origin's instructions).
    struct QueryClient: SchemeHTTPClient {
        var base: any SchemeHTTPClient
        var query: String

        func send(_ request: SchemeHTTPClientRequest) async throws -> SchemeHTTPClientResponse {
            var request = request
            var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
            components?.percentEncodedQuery = query
            if let url = components?.url { request.url = url }
            return try await base.send(request)
        }
    }
}
