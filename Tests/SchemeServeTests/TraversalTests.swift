// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import SchemeKit
    import SchemeServe
    import Testing

    /// Traversal payloads sent raw over TCP, so no client library normalises them: none may return
    /// a byte of the secrets placed next to the root (`../secret.txt`, `../root-old/secret.txt`,
    /// symlinks out), and none may crash the connection with a 500.
    @Suite(.ownThread, .timeLimit(.minutes(2)))
    struct TraversalTests {
        static let payloads: [String] = {
            let targets = ["secret.txt", "root-old/secret.txt"]
            let ups = [
                "../", "..%2f", "..%2F", "%2e%2e/", "%2e%2e%2f", "%2E%2E%2F", ".%2e/", "%2e./", "..\\", "..%5c",
                "..%5C",
                "%2e%2e%5c", "%252e%252e%252f", "..%252f", "%c0%ae%c0%ae/", "%c0%ae%c0%ae%c0%af", "%e0%80%ae%e0%80%ae/",
                "..%c0%af", "..%c1%9c", ".../", "....//", "..;/", "%2e%2e;/", "..%00/", "..%0d/", "../\u{2e}\u{2e}/",
            ]
            var list: [String] = []
            for up in ups {
                for target in targets {
                    list.append("/" + up + target)
                    list.append("/sub/" + up + up + target)
                }
            }
            list += [
                "/escape", "/escape-dir/secret.txt", "/escape?raw", "/escape?import", "/../secret.txt?raw",
                "/..;/secret.txt", "/sub/..;/..;/secret.txt", "/%2e%2e/secret.txt?import", "/./../secret.txt",
                "//../secret.txt", "/sub//../../secret.txt", "/%2F..%2Fsecret.txt", "/..%2F..%2Fsecret.txt",
                "/%5c..%5csecret.txt", "/\\..\\secret.txt", "/..", "/../", "/sub/../../", "/%2e%2e",
                "/../root-old/", "/../root-old", "/escape-dir/", "/etc/passwd/../../secret.txt",
            ]
            return list
        }()

        @Test func atLeastFiftyPayloads() {
            #expect(Self.payloads.count >= 50)
        }

        /// Under every symlink policy, `follow` included: a link is followed only as a link in the
        /// served tree (`/escape`, `/escape-dir/…`, which `follow` serves on purpose and are left
        /// out for it), never by a `..` in the URL.
        @Test(arguments: LocalFileHandler.SymlinkPolicy.allCases)
        func noPayloadLeavesTheRoot(policy: LocalFileHandler.SymlinkPolicy) async throws {
            let payloads = policy == .follow ? Self.payloads.filter { !$0.hasPrefix("/escape") } : Self.payloads
            #expect(payloads.count >= 50)
            try await TestServer.with(configure: {
                $0.listDirectories = true
                $0.symlinks = policy
            }) { server in
                for payload in payloads {
                    let raw = Data("GET \(payload) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
                    let response = try await RawHTTP.transmit(port: server.port, raw)
                    #expect(!response.text.contains(Fixtures.secret), "leak: \(payload)")
                    #expect(!response.text.contains("root-old"), "listing outside root: \(payload)")
                    #expect(response.status != 500, "500 for \(payload)")
                    #expect(
                        response.status != 200 || payload.hasSuffix("..;/") || response.text.contains("<h1>"),
                        "200 for \(payload): \(response.text.prefix(80))")
                }
            }
        }

        @Test func legitimateNamesWithDotsAreServed() async throws {
            try await TestServer.with { server in
                let checked = try await RawHTTP.fetch(port: server.port, "/a..b.txt")
                #expect(checked.text == "ok")
                let dotted = try await RawHTTP.fetch(port: server.port, "/sub/page.txt")
                #expect(dotted.text == "sub", "\(dotted.status) \(dotted.text)")
            }
        }
    }
#endif
