import Foundation
import HTTPTypes
import SchemeKit
import SchemeKitTesting
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FilesTests {
    /// A wrong root fails the request (typed error), never passes it on; `.pass` and `checkRoot()`.
    @Suite(.timeLimit(.minutes(1)))
    struct LocalFileRootTests {
        /// How often the handler after the files was reached.
        final class Counter: Sendable {
            let count = Mutex(0)
        }

        /// A chain of `files` then a handler that counts how often it was reached.
        static func chain(_ files: LocalFileHandler, reached: Counter) -> some SchemeHandler {
            SchemeHandlerChain(
                files,
                ClosureHandler { _, writer in
                    reached.count.withLock { $0 += 1 }
                    try await writer.respond(.badGateway, body: Data("network".utf8))
                    return .handled
                })
        }

        @Test func aMissingRootFailsTheFirstRequestInsteadOfPassingToTheNetwork() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            let reached = Counter()
            let files = LocalFileHandler(root: fixture.base.appendingPathComponent("no-such-root"))
            for path in ["/index.html", "/", "/app.js"] {
                let result = try await exchange(Self.chain(files, reached: reached), "app://localhost\(path)")
                #expect(result.status == nil, "\(path)")
                let failure = try #require(result.sink.failure, "\(path)")
                #expect(failure.contains("root directory cannot be opened"), "\(failure)")
                #expect(!failure.contains(fixture.base.path), "the message names no path: \(failure)")
            }
            #expect(reached.count.withLock { $0 } == 0)
        }

        @Test func aRootThatIsAFileFails() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            let file = try fixture.write("plain.txt", "not a directory")
            let result = try await exchange(LocalFileHandler(root: file), "app://localhost/index.html")
            #expect(!result.wasPassed)
            #expect(result.sink.failure?.contains("errno \(ENOTDIR)") == true, "\(result.sink.failure ?? "")")
        }

        @Test func anExistingRootStillPassesMissingFiles() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            let reached = Counter()
            let result = try await exchange(
                Self.chain(LocalFileHandler(root: fixture.root), reached: reached), "app://localhost/missing.js")
            #expect(result.status == 502)
            #expect(result.text == "network")
            #expect(reached.count.withLock { $0 } == 1)
        }

        @Test func aRootDeletedAfterCreationFailsFromThenOn() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            try fixture.write("index.html", "home")
            let files = LocalFileHandler(root: fixture.root)
            #expect(try await exchange(files, "app://localhost/").text == "home")
            try FileManager.default.removeItem(at: fixture.root)
            let result = try await exchange(files, "app://localhost/")
            #expect(!result.wasPassed)
            #expect(
                result.sink.failure
                    == "the root directory cannot be opened (No such file or directory, errno 2); check the handler's root"
            )
        }

        @Test func aDynamicRootMayAppearLater() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            let later = fixture.base.appendingPathComponent("later")
            let files = LocalFileHandler(configuration: .init(root: .dynamic { later }))
            let before = try await exchange(files, "app://localhost/index.html")
            #expect(!before.wasPassed)
            #expect(before.sink.failure?.contains("root directory cannot be opened") == true)
            try FileManager.default.createDirectory(at: later, withIntermediateDirectories: true)
            try Data("now".utf8).write(to: later.appendingPathComponent("index.html"))
            #expect(try await exchange(files, "app://localhost/index.html").text == "now")
        }

        @Test func thePassPolicyLetsAnUnavailableRootPass() async throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            struct NothingInstalled: Error {}
            let missing = LocalFileHandler(
                configuration: .init(
                    root: .directory(fixture.base.appendingPathComponent("nope")), unavailableRoot: .pass))
            #expect(try await exchange(missing, "app://localhost/index.html").wasPassed)
            let throwing = LocalFileHandler(
                configuration: .init(root: .dynamic { throw NothingInstalled() }, unavailableRoot: .pass))
            #expect(try await exchange(throwing, "app://localhost/index.html").wasPassed)
            // With the default policy the provider's own error fails the task.
            let failing = LocalFileHandler(configuration: .init(root: .dynamic { throw NothingInstalled() }))
            let failed = try await exchange(failing, "app://localhost/index.html")
            #expect(failed.sink.failure == "NothingInstalled()")
        }

        @Test func checkRootReportsAWrongRootAtStartup() throws {
            let fixture = try FileFixture()
            defer { fixture.remove() }
            #expect(throws: LocalFileHandlerError.rootUnavailable(errno: ENOENT)) {
                try LocalFileHandler(root: fixture.base.appendingPathComponent("nope")).checkRoot()
            }
            let file = try fixture.write("file.txt", "x")
            #expect(throws: LocalFileHandlerError.rootUnavailable(errno: ENOTDIR)) {
                try LocalFileHandler(root: file).checkRoot()
            }
            try LocalFileHandler(root: fixture.root).checkRoot()
        }
    }
}
