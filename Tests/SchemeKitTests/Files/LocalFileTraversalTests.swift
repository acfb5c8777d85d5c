import Foundation
import SchemeKit
import SchemeKitTesting
import Testing

@testable import SchemeKit

extension FilesTests {
    /// Path-safety tests: nothing outside the root is ever opened or served, whatever the encoding.
    @Suite(.timeLimit(.minutes(1)))
    struct LocalFileTraversalTests {
        /// Paths appended to `app://localhost`. Each must end in 403 or 404 without a byte from
        /// outside the root.
        static let payloads: [String] = [
            "/../outside/canary.txt",
            "/..%2foutside%2fcanary.txt",
            "/..%2Foutside%2Fcanary.txt",
            "/%2e%2e/outside/canary.txt",
            "/%2E%2E/outside/canary.txt",
            "/.%2e/outside/canary.txt",
            "/%2e./outside/canary.txt",
            "/%252e%252e/outside/canary.txt",
            "/%252e%252e%252foutside%252fcanary.txt",
            "/..%252f..%252foutside%252fcanary.txt",
            "/..%5coutside%5ccanary.txt",
            "/..%5Coutside%5Ccanary.txt",
            "/%5c..%5coutside%5ccanary.txt",
            "/..%255coutside%255ccanary.txt",
            "/a/../../outside/canary.txt",
            "/sub/../../outside/canary.txt",
            "/sub/%2e%2e/%2e%2e/outside/canary.txt",
            "/sub/.%2e/.%2e/outside/canary.txt",
            "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
            "/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
            "/%2F..%2F..%2Foutside%2Fcanary.txt",
            "/..;/outside/canary.txt",
            "/sub/..;/..;/outside/canary.txt",
            "/.;/../outside/canary.txt",
            "/%2e%2e;x/outside/canary.txt",
            "/..;jsessionid=1/outside/canary.txt",
            "/..%20/outside/canary.txt",
            "/%20../outside/canary.txt",
            "/.../outside/canary.txt",
            "/..%09/outside/canary.txt",
            "/canary.txt%00.html",
            "/%00../outside/canary.txt",
            "/sub%00/../../outside/canary.txt",
            "/.%00./outside/canary.txt",
            "/%0a../outside/canary.txt",
            "/%0d%0a../outside/canary.txt",
            "/%7f../outside/canary.txt",
            "/%c2%85../outside/canary.txt",
            "/%c0%ae%c0%ae/outside/canary.txt",
            "/%c0%ae%c0%ae%c0%afoutside%c0%afcanary.txt",
            "/%e0%80%ae%e0%80%ae/outside/canary.txt",
            "/..%c0%af../outside/canary.txt",
            "/%ff%fe/outside/canary.txt",
            "/%ed%a0%80/canary.txt",
            "/%2fetc%2fpasswd",
            "/%2F%2Fetc%2Fpasswd",
            "//etc/passwd",
            "///outside/canary.txt",
            "/C:/Windows/win.ini",
            "/c:%5cwindows%5cwin.ini",
            "/sub/C:..%5c..%5coutside",
            "/%%32%65%%32%65/outside/canary.txt",
            "/%2/outside/canary.txt",
            "/%u002e%u002e/outside/canary.txt",
            "/%ef%bc%8e%ef%bc%8e/outside/canary.txt",
            "/link-outside/canary.txt",
            "/link-sibling/secret.txt",
            "/link-sibling-file",
            "/link-etc/passwd",
            "/link-etc-passwd",
            "/link-canary",
            "/sub/link-up/canary.txt",
            "/link-absolute-canary",
            "/link-loop",
            "/link-dangling",
            "/dir-link/../../outside/canary.txt",
            "/" + String(repeating: "a", count: 2000),
            "/" + String(repeating: "b", count: 300) + "/../outside/canary.txt",
            "/" + Array(repeating: "x", count: 600).joined(separator: "/"),
            "/" + String(repeating: "%2e%2e/", count: 40) + "etc/passwd",
            "/.git/config",
            "/.env",
            "/sub/.hidden/../../outside/canary.txt",
        ]

        static func makeFixture() throws -> FileFixture {
            let fixture = try FileFixture()
            try fixture.write("index.html", "<h1>root</h1>")
            try fixture.write("sub/page.html", "<p>page</p>")
            try fixture.write(".git/config", "[core]")
            try fixture.write(".env", "SECRET=1")
            try fixture.symlink("link-outside", to: "../outside")
            try fixture.symlink("link-sibling", to: "../root-old")
            try fixture.symlink("link-sibling-file", to: fixture.sibling.appendingPathComponent("secret.txt").path)
            try fixture.symlink("link-etc", to: "/etc")
            try fixture.symlink("link-etc-passwd", to: "/etc/passwd")
            try fixture.symlink("link-canary", to: "../outside/canary.txt")
            try fixture.symlink("sub/link-up", to: "../../outside")
            try fixture.symlink("link-absolute-canary", to: fixture.outside.appendingPathComponent("canary.txt").path)
            try fixture.symlink("link-loop", to: "link-loop")
            try fixture.symlink("link-dangling", to: "../outside/missing.txt")
            try fixture.symlink("dir-link", to: "sub")
            return fixture
        }

        /// The payloads that name one of the fixture's links out of the root, with no `..`: the
        /// tree's own links, which ``LocalFileHandler/SymlinkPolicy/follow`` follows on purpose.
        static let linkPayloads: Set<String> = [
            "/link-outside/canary.txt", "/link-sibling/secret.txt", "/link-sibling-file", "/link-etc/passwd",
            "/link-etc-passwd", "/link-canary", "/sub/link-up/canary.txt", "/link-absolute-canary",
        ]

        /// The payloads that must be refused under `policy`: all of them, but the tree's own links
        /// under `follow`. Every other payload (`..` in any spelling, through a link or not) is
        /// refused under every policy.
        static func payloads(refusedUnder policy: LocalFileHandler.SymlinkPolicy) -> [String] {
            policy == .follow ? payloads.filter { !linkPayloads.contains($0) } : payloads
        }

        @Test func payloadListIsLargeEnough() {
            #expect(Self.payloads.count >= 50)
            #expect(Self.payloads(refusedUnder: .follow).count >= 50)
        }

        @Test(arguments: LocalFileHandler.SymlinkPolicy.allCases)
        func everyPayloadIsRefusedWithoutReadingOutsideTheRoot(policy: LocalFileHandler.SymlinkPolicy) async throws {
            let fixture = try Self.makeFixture()
            defer { fixture.remove() }
            let handler = LocalFileHandler(configuration: .init(root: .directory(fixture.root), symlinks: policy))
            let probe = FileReadProbe()
            let forbidden = try [
                fixture.outside.appendingPathComponent("canary.txt"),
                fixture.sibling.appendingPathComponent("secret.txt"),
                URL(fileURLWithPath: "/etc/passwd"),
            ].map { url in
                let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
                return (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
            }
            var sent = 0
            try await FileReadProbe.$current.withValue(probe) {
                for payload in Self.payloads(refusedUnder: policy) {
                    guard let request = try? SchemeRequest("app://localhost" + payload) else { continue }
                    sent += 1
                    let registry = SchemeRegistry()
                    try registry.register(handler, for: "app")
                    let sink = RecordingSink()
                    await registry.handle(request, sink: sink)
                    let status = sink.response?.status.code
                    #expect(status == 403 || status == 404, "\(payload) → \(String(describing: status))")
                    let body = sink.body
                    #expect(body.range(of: FileFixture.canary) == nil, "\(payload) leaked the canary")
                    #expect(body.range(of: FileFixture.siblingSecret) == nil, "\(payload) leaked the sibling")
                    #expect(!sink.bodyString.contains("root:"), "\(payload) leaked /etc/passwd")
                    #expect(!sink.bodyString.contains("/"), "\(payload) body mentions a path: \(sink.bodyString)")
                    #expect(
                        sink.bodyString.count < 40 || sink.bodyString.contains("symlink policy"),
                        "one word, or a refused link's reason: \(sink.bodyString)")
                    #expect(sink.violations.isEmpty)
                }
            }
            let least = 50 - (policy == .follow ? Self.linkPayloads.count : 0)
            #expect(sent >= least, "only \(sent) payloads could be expressed as URLs")
            let opened = probe.openedFiles.map(\.inode)
            for inode in forbidden.compactMap({ $0 }) {
                #expect(!opened.contains(inode), "a file outside the root was opened")
            }
        }

        @Test func symlinkEscapesAreAnsweredDirectlyNeverPassed() async throws {
            let fixture = try Self.makeFixture()
            defer { fixture.remove() }
            let handler = LocalFileHandler(root: fixture.root)
            for path in ["/link-outside/canary.txt", "/link-sibling/secret.txt", "/link-etc/passwd", "/link-canary"] {
                let result = try await exchange(handler, "app://localhost" + path)
                #expect(result.status == 403, "\(path)")
                #expect(result.respondingHandler == "files", "\(path) must not fall through to the next handler")
                #expect(
                    result.text
                        == "Forbidden: a symbolic link out of the served directory (symlink policy within-root; symlink policy follow serves it)\n"
                )
            }
            let dotDot = try await exchange(handler, "app://localhost/..%2f")
            #expect(dotDot.status == 403)
            #expect(dotDot.respondingHandler == "files")
            #expect(dotDot.text == "Forbidden\n", "a `..` is no link: one word")
            #expect(dotDot.sink.response?.refusalReason == nil)
        }

        /// A name no file system allows, or a path past the limit, names nothing: 404 as nginx
        /// answers, never a 403 that says something is there, and never passed to the network.
        @Test(arguments: [
            "/" + String(repeating: "a", count: 256),
            "/sub/" + String(repeating: "a", count: 300) + ".html",
            "/" + Array(repeating: "abcdefgh", count: 120).joined(separator: "/"),
        ])
        func aPathTooLongToExistIsNotFoundAnsweredDirectly(path: String) async throws {
            let fixture = try Self.makeFixture()
            defer { fixture.remove() }
            let result = try await exchange(LocalFileHandler(root: fixture.root), "app://localhost" + path)
            #expect(result.status == 404)
            #expect(result.respondingHandler == "files", "must not fall through to the next handler")
        }

        @Test func symlinksInsideTheRootAreFollowedOrRefusedByPolicy() async throws {
            let fixture = try Self.makeFixture()
            defer { fixture.remove() }
            try fixture.symlink("alias.html", to: "sub/page.html")
            let following = LocalFileHandler(root: fixture.root)
            #expect(try await exchange(following, "app://localhost/dir-link/page.html").text == "<p>page</p>")
            #expect(try await exchange(following, "app://localhost/alias.html").text == "<p>page</p>")

            let refusing = LocalFileHandler(configuration: .init(root: .directory(fixture.root), symlinks: .refuse))
            #expect(try await exchange(refusing, "app://localhost/alias.html").status == 403)
            #expect(try await exchange(refusing, "app://localhost/dir-link/page.html").status == 403)
            #expect(try await exchange(refusing, "app://localhost/sub/page.html").text == "<p>page</p>")
        }

        @Test func aRootReachedThroughASymlinkStillContainsItsFiles() async throws {
            let fixture = try Self.makeFixture()
            defer { fixture.remove() }
            let current = fixture.base.appendingPathComponent("current")
            try FileManager.default.createSymbolicLink(atPath: current.path, withDestinationPath: "root")
            try fixture.symlink("alias.html", to: "sub/page.html")
            let handler = LocalFileHandler(root: current)
            #expect(try await exchange(handler, "app://localhost/alias.html").text == "<p>page</p>")
            #expect(try await exchange(handler, "app://localhost/link-sibling/secret.txt").status == 403)
        }

        @Test(arguments: ["a..b.txt", "..foo", "%2e%2e%2e.txt", "semi;colon.txt", "sp ace.txt"])
        func oddButLegitimateNamesAreServed(name: String) async throws {
            let fixture = try Self.makeFixture()
            defer { fixture.remove() }
            try fixture.write(name, "content of \(name)")
            let handler = LocalFileHandler(configuration: .init(root: .directory(fixture.root), hiddenFiles: .allow))
            let encoded = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["%", ";"]))!
            let result = try await exchange(handler, "app://localhost/" + encoded)
            #expect(result.status == 200)
            #expect(result.text == "content of \(name)")
        }

        @Test func doubleEncodedDotsAreJustAName() async throws {
            let fixture = try Self.makeFixture()
            defer { fixture.remove() }
            try fixture.write("%2e%2e/inside.txt", "literal")
            let handler = LocalFileHandler(root: fixture.root)
            #expect(try await exchange(handler, "app://localhost/%252e%252e/inside.txt").text == "literal")
        }

        @Test func hiddenFilesAreDeniedWith404ByDefault() async throws {
            let fixture = try Self.makeFixture()
            defer { fixture.remove() }
            let result = try await exchange(LocalFileHandler(root: fixture.root), "app://localhost/.env")
            #expect(result.status == 404)
            #expect(result.respondingHandler == "files")
            let allowing = LocalFileHandler(configuration: .init(root: .directory(fixture.root), hiddenFiles: .allow))
            #expect(try await exchange(allowing, "app://localhost/.env").text == "SECRET=1")
        }
    }
}
