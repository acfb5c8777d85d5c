// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import Logging
    import LoopbackTestSupport
    import SchemeKit
    import SchemeServe
    import Testing

    /// `--symlinks` over HTTP: the standard site's links out of the root, `escape` (to a file) and
    /// `escape-dir` (to a directory), under each policy: served under `follow`, a 403 that names the
    /// policy otherwise, with the reason in the access log and never the link's target.
    @Suite(.ownThread, .timeLimit(.minutes(1)))
    struct ServeSymlinkTests {
        @Test(arguments: ["/escape", "/escape-dir/secret.txt"])
        func followServesALinkOutOfTheRoot(path: String) async throws {
            try await TestServer.with(configure: { $0.symlinks = .follow }) { server in
                let response = try await RawHTTP.fetch(port: server.port, path)
                #expect(response.status == 200)
                #expect(response.text == Fixtures.secret)
            }
        }

        @Test(
            arguments: [LocalFileHandler.SymlinkPolicy.followWithinRoot, .refuse],
            ["/escape", "/escape-dir/secret.txt"])
        func aRefusedLinkSaysWhyInTheBodyAndTheAccessLog(policy: LocalFileHandler.SymlinkPolicy, path: String)
            async throws
        {
            let access = ServeCancellationTests.AccessLines()
            let reason = LocalFileHandlerError.symlinkRefused(policy: policy).description
            try await TestServer.with(
                configure: { $0.symlinks = policy }, accessLogger: Logger(label: "access") { _ in access }
            ) { server in
                let response = try await RawHTTP.fetch(port: server.port, path)
                #expect(response.status == 403)
                #expect(response.text == "Forbidden: \(reason)\n")
                #expect(response.text.contains("symlink policy \(policy.rawValue)"))
                #expect(!response.text.contains("/") && !response.text.contains("root-old"), "no target path")
                #expect(!response.text.contains(Fixtures.secret))
            }
            let lines = access.lines.withLock { $0 }
            #expect(lines.count == 1)
            #expect(lines.first?.hasPrefix("GET \(path) 403 ") == true)
            #expect(lines.first?.hasSuffix(" files refused: \(reason)") == true, "\(lines)")
        }

        /// The command line: `--symlinks follow` reaches the file handler, and a bad value is a
        /// usage error (exit 64, one line).
        @Test func theCommandLineTakesThePolicy() async throws {
            let base = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: base) }
            let root = base.appending(path: "root", directoryHint: .isDirectory)
            try Fixtures.standardSite(root)
            let following = try ServeProcess([root.path, "--symlinks", "follow"])
            defer { following.stop() }
            #expect(try await RawHTTP.fetch(port: following.port, "/escape-dir/secret.txt").text == Fixtures.secret)
            let byDefault = try ServeProcess([root.path])
            defer { byDefault.stop() }
            let refused = try await RawHTTP.fetch(port: byDefault.port, "/escape-dir/secret.txt")
            #expect(refused.status == 403)
            #expect(refused.text.contains("symlink policy within-root"))

            let (status, stdout, stderr) = try ServeProcess.runToEnd([root.path, "--symlinks", "sometimes"])
            #expect(status == 64)
            #expect(stdout.isEmpty)
            #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
            #expect(stderr.contains("invalid --symlinks 'sometimes': give follow, within-root or refuse"), "\(stderr)")
        }

        @Test func aPlainRefusalHasNoReasonInTheAccessLog() async throws {
            let access = ServeCancellationTests.AccessLines()
            try await TestServer.with(accessLogger: Logger(label: "access") { _ in access }) { server in
                let response = try await RawHTTP.fetch(port: server.port, "/index.html")
                #expect(response.status == 200)
            }
            let lines = access.lines.withLock { $0 }
            #expect(lines.count == 1)
            #expect(lines.first?.hasSuffix(" files") == true, "\(lines)")
        }
    }
#endif
