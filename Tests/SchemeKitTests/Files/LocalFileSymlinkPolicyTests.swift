import Foundation
import SchemeKit
import SchemeKitTesting
import Testing

extension FilesTests {
    /// Symbolic links as real sites ship them (Debian's Sphinx docs link `_static/jquery.js` into
    /// `/usr/share/javascript`): a link out of the root to a file and to a directory, and one inside
    /// it, under each ``LocalFileHandler/SymlinkPolicy``; a refused link is a 403 that says why,
    /// never where the link points.
    struct LocalFileSymlinkPolicyTests {
        static let shared = "jQuery-from-the-shared-directory"

        /// `root/_static/jquery.js` → `outside/javascript/jquery.js`, `root/vendor` →
        /// `outside/javascript`, `root/alias.html` → `page.html`.
        static func makeFixture() throws -> FileFixture {
            let fixture = try FileFixture()
            try fixture.write("page.html", "<p>page</p>")
            let javascript = fixture.outside.appendingPathComponent("javascript")
            try FileManager.default.createDirectory(at: javascript, withIntermediateDirectories: true)
            try Data(shared.utf8).write(to: javascript.appendingPathComponent("jquery.js"))
            try fixture.symlink("_static/jquery.js", to: javascript.appendingPathComponent("jquery.js").path)
            try fixture.symlink("vendor", to: "../outside/javascript")
            try fixture.symlink("alias.html", to: "page.html")
            return fixture
        }

        static func handler(_ fixture: FileFixture, _ policy: LocalFileHandler.SymlinkPolicy) -> LocalFileHandler {
            LocalFileHandler(configuration: .init(root: .directory(fixture.root), symlinks: policy))
        }

        /// What a refused link's body says under `policy`.
        static func refusalBody(_ policy: LocalFileHandler.SymlinkPolicy) -> String {
            "Forbidden: \(LocalFileHandlerError.symlinkRefused(policy: policy))\n"
        }

        @Test(arguments: ["/_static/jquery.js", "/vendor/jquery.js"])
        func followServesALinkOutOfTheRoot(path: String) async throws {
            let fixture = try Self.makeFixture()
            defer { fixture.remove() }
            let result = try await exchange(Self.handler(fixture, .follow), "app://localhost" + path)
            #expect(result.status == 200)
            #expect(result.text == Self.shared)
            #expect(result.headers[.contentType]?.hasPrefix("text/javascript") == true)
            #expect(result.sink.response?.refusalReason == nil)
        }

        @Test(
            arguments: [LocalFileHandler.SymlinkPolicy.followWithinRoot, .refuse],
            ["/_static/jquery.js", "/vendor/jquery.js"])
        func aLinkOutOfTheRootIsRefusedWithItsReason(policy: LocalFileHandler.SymlinkPolicy, path: String)
            async throws
        {
            let fixture = try Self.makeFixture()
            defer { fixture.remove() }
            let handler = Self.handler(fixture, policy)
            // Through a task, as an engine asks…
            let result = try await exchange(handler, "app://localhost" + path)
            #expect(result.status == 403)
            #expect(result.respondingHandler == "files", "answered, never passed on to the network")
            #expect(result.text == Self.refusalBody(policy))
            let reason = try #require(result.sink.response?.refusalReason as? LocalFileHandlerError)
            #expect(reason == .symlinkRefused(policy: policy))
            // …and at once, as schemeserve and the browsers' loopback origin ask.
            let registry = SchemeRegistry()
            try registry.register(handler, for: "app")
            let immediate = try #require(registry.immediateResponse(for: SchemeRequest("app://localhost" + path)))
            #expect(immediate.head.status == .forbidden)
            #expect(String(decoding: immediate.body, as: UTF8.self) == Self.refusalBody(policy))
            #expect(immediate.head.refusalReason as? LocalFileHandlerError == .symlinkRefused(policy: policy))
            // HEAD: no body, the same reason.
            let head = try await exchange(handler, "app://localhost" + path, method: .head)
            #expect(head.status == 403)
            #expect(head.body.isEmpty)
            #expect(head.sink.response?.refusalReason as? LocalFileHandlerError == .symlinkRefused(policy: policy))
        }

        @Test(arguments: LocalFileHandler.SymlinkPolicy.allCases)
        func theReasonNamesThePolicyNeverTheTarget(policy: LocalFileHandler.SymlinkPolicy) {
            let body = Self.refusalBody(policy)
            #expect(body.contains("symlink policy \(policy.rawValue)"))
            #expect(!body.contains("/"), "no path in \(body)")
            #expect(!body.contains("outside") && !body.contains("javascript"))
        }

        @Test func theRefusalBodiesSayWhatServesTheLink() {
            #expect(
                Self.refusalBody(.followWithinRoot)
                    == "Forbidden: a symbolic link out of the served directory (symlink policy within-root; symlink policy follow serves it)\n"
            )
            #expect(
                Self.refusalBody(.refuse)
                    == "Forbidden: a symbolic link (symlink policy refuse; symlink policy within-root or follow serves it)\n"
            )
        }

        @Test(arguments: LocalFileHandler.SymlinkPolicy.allCases)
        func aLinkInsideTheRootIsServedUnlessRefused(policy: LocalFileHandler.SymlinkPolicy) async throws {
            let fixture = try Self.makeFixture()
            defer { fixture.remove() }
            let result = try await exchange(Self.handler(fixture, policy), "app://localhost/alias.html")
            if policy == .refuse {
                #expect(result.status == 403)
                #expect(result.text == Self.refusalBody(.refuse))
            } else {
                #expect(result.text == "<p>page</p>")
            }
        }

        /// `follow` follows the tree's own links, never a `..` in the URL, even one that would
        /// land where a link leads.
        @Test(arguments: [
            "/vendor/../../outside/javascript/jquery.js", "/vendor/%2e%2e/%2e%2e/outside/javascript/jquery.js",
            "/..%2foutside%2fjavascript%2fjquery.js", "/_static/..%2f..%2foutside/javascript/jquery.js",
        ])
        func followNeverTakesADotDot(path: String) async throws {
            let fixture = try Self.makeFixture()
            defer { fixture.remove() }
            let result = try await exchange(Self.handler(fixture, .follow), "app://localhost" + path)
            #expect(result.status == 403 || result.status == 404, "\(path) → \(String(describing: result.status))")
            #expect(!result.text.contains(Self.shared))
        }
    }
}
