// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import Logging
    import SchemeKit
    import SchemeServe
    import Synchronization

    /// A schemeserve running in-process on 127.0.0.1, port 0, for the duration of a test.
    struct TestServer {
        let port: Int
        let root: URL
        let registry: SchemeRegistry

        /// Builds a site under a fresh temporary directory, starts a server on it, runs `body`, stops
        /// it and waits until it has stopped, whether `body` returned or threw.
        ///
        /// - Parameter accessLogger: The access log's logger; `nil` (the default) for none.
        static func with<T>(
            configure: (inout ServeConfiguration) -> Void = { _ in },
            factories: ServeHandlerFactories = .standard,
            site: (URL) throws -> Void = Fixtures.standardSite,
            register: (SchemeRegistry) throws -> Void = { _ in },
            accessLogger: Logger? = nil,
            _ body: (TestServer) async throws -> T
        ) async throws -> T {
            let base = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: base) }
            let root = base.appending(path: "root", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try site(root)
            var configuration = ServeConfiguration(root: root)
            configuration.port = 0
            configure(&configuration)
            var logger = Logger(label: "test")
            logger.logLevel = .warning
            let server = try SchemeServer(
                configuration: configuration, factories: factories, logger: logger, accessLogger: .some(accessLogger))
            try register(server.registry)
            let ready = AsyncStream.makeStream(of: Int.self)
            let running = Task {
                try await server.run(gracefulShutdownOnSignals: false) { address in
                    ready.continuation.yield(address.port)
                    ready.continuation.finish()
                }
            }
            let result: Result<T, any Error>
            do {
                let port = try await withTimeout(seconds: 20) {
                    var iterator = ready.stream.makeAsyncIterator()
                    guard let port = await iterator.next() else {
                        throw RawHTTP.Failure(description: "server did not start")
                    }
                    return port
                }
                result = .success(try await body(TestServer(port: port, root: root, registry: server.registry)))
            } catch {
                result = .failure(error)
            }
            // Stopped and awaited on every path: the server is gone when the test goes on.
            running.cancel()
            _ = await running.result
            return try result.get()
        }
    }

    /// Runs `operation`, failing after `seconds`.
    func withTimeout<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async throws -> T) async throws
        -> T
    {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))  // the deadline: catches a hang
                throw RawHTTP.Failure(description: "timed out after \(seconds) s")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// Files the tests serve.
    enum Fixtures {
        static let secret = "TOP-SECRET-OUTSIDE-ROOT"

        static func temporaryDirectory() throws -> URL {
            let url = FileManager.default.temporaryDirectory.appending(
                path: "schemeserve-\(UUID().uuidString)", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }

        static func write(_ text: String, _ path: String, in root: URL) throws {
            let url = root.appending(path: path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        /// index.html, a.css, b.js, c.json, d.png, a 1000-byte text file, dotfiles, a `a..b.txt`, and
        /// secrets outside the root (in the parent and in a sibling `root-old/`), a symlink out.
        static func standardSite(_ root: URL) throws {
            try write("<!doctype html><html><body><h1>hi</h1></body></html>", "index.html", in: root)
            try write(String(repeating: "body { color: red; }\n", count: 40), "a.css", in: root)
            try write(String(repeating: "console.log('x');\n", count: 40), "b.js", in: root)
            try write("{\"a\":1}", "c.json", in: root)
            try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 32)).write(
                to: root.appending(path: "d.png"))
            try write(String((0..<1000).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) }), "letters.txt", in: root)
            try write("SECRET=1", ".env", in: root)
            try write("[core]", ".git/config", in: root)
            try write("ok", "a..b.txt", in: root)
            try write("sub", "sub/page.txt", in: root)
            try write("<x>", "list/<b>&.txt", in: root)
            let parent = root.deletingLastPathComponent()
            try write(secret, "secret.txt", in: parent)
            try write(secret, "root-old/secret.txt", in: parent)
            try FileManager.default.createSymbolicLink(
                at: root.appending(path: "escape"),
                withDestinationURL: parent.appending(path: "secret.txt")
            )
            try FileManager.default.createSymbolicLink(
                at: root.appending(path: "escape-dir"),
                withDestinationURL: parent.appending(path: "root-old", directoryHint: .isDirectory)
            )
        }
    }
#endif
