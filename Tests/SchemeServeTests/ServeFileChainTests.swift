// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import SchemeKit
    import SchemeServe
    import Testing

    /// schemeserve's chain: one file handler owns dotfiles, siblings and the cache.
    @Suite(.ownThread, .timeLimit(.minutes(2)))
    struct ServeFileChainTests {
        @Test func theChainHoldsOnlyTheFileHandlerWithoutRemotes() throws {
            let root = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: root) }
            let chain = try ServeHandlerChainBuilder(configuration: ServeConfiguration(root: root)).build()
            #expect(chain.handlers.map(\.name) == ["files"])
            let file = try #require(chain.handlers.first as? LocalFileHandler)
            #expect(file.configuration.hiddenFiles == .deny)
            #expect(file.configuration.precompressed == [.brotli, .gzip])
            #expect(file.configuration.bodyCache?.maxFileSize == 256 << 10)
            #expect(file.configuration.bodyCache?.totalCostLimit == 32 << 20)

            var plain = ServeConfiguration(root: root)
            plain.gzip = false
            plain.smallFileCacheLimit = 0
            plain.dotfiles = true
            let other = try #require(
                try ServeHandlerChainBuilder(configuration: plain).build().handlers.first as? LocalFileHandler)
            #expect(other.configuration.precompressed.isEmpty)
            #expect(other.configuration.bodyCache == nil)
            #expect(other.configuration.hiddenFiles == .allow)
        }

        @Test func aMissingRootIsRefused() throws {
            let configuration = ServeConfiguration(root: URL(filePath: "/nonexistent-\(UUID().uuidString)"))
            #expect(throws: ServeError.self) { try ServeHandlerChainBuilder(configuration: configuration).build() }
        }

        @Test func brotliSiblingThroughSchemeserve() async throws {
            try await TestServer.with(site: { root in
                try Fixtures.standardSite(root)
                try Data("not really brotli".utf8).write(to: root.appending(path: "b.js.br"))
                try Data("not really gzip".utf8).write(to: root.appending(path: "b.js.gz"))
            }) { server in
                let plain = try await RawHTTP.fetch(port: server.port, "/b.js")
                let brotli = try await RawHTTP.fetch(
                    port: server.port, "/b.js", headers: ["Accept-Encoding": "gzip, br"])
                #expect(brotli.status == 200)
                #expect(brotli.header("Content-Encoding") == "br")
                #expect(brotli.header("Vary")?.contains("Accept-Encoding") == true)
                #expect(brotli.header("Content-Type")?.hasPrefix("text/javascript") == true)
                #expect(brotli.text == "not really brotli")
                let gzip = try await RawHTTP.fetch(port: server.port, "/b.js", headers: ["Accept-Encoding": "gzip"])
                #expect(gzip.text == "not really gzip")
                let tags = [plain, brotli, gzip].compactMap { $0.header("ETag") }
                #expect(Set(tags).count == 3)
                let revalidated = try await RawHTTP.fetch(
                    port: server.port, "/b.js",
                    headers: ["Accept-Encoding": "br", "If-None-Match": brotli.header("ETag") ?? ""])
                #expect(revalidated.status == 304)
                // A dotfile's sibling is as hidden as the dotfile.
                let hidden = try await RawHTTP.fetch(port: server.port, "/.env", headers: ["Accept-Encoding": "gzip"])
                #expect(hidden.status == 404)
            }
        }
    }
#endif
