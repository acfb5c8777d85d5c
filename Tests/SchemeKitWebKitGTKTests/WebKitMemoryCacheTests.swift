// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import SchemeKitWebKitGTK
    import Testing

    /// What WebKit's memory cache does with custom-scheme subresources, and how an embedder empties it:
    /// a cacheable script is not asked for again until ``WebKitSchemeAdapter/clearMemoryCache(networkSession:)``,
    /// while the file handler's default `no-cache` makes every load ask again.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct WebKitMemoryCacheTests {
        /// A page whose script sets `window.version`, and that script at `version`.
        static func writePage(in directory: URL, version: Int) throws {
            try Data("<!doctype html><title>cache</title><script src=\"v.js\"></script>".utf8)
                .write(to: directory.appendingPathComponent("page.html"))
            try Data("window.version = \(version);".utf8).write(to: directory.appendingPathComponent("v.js"))
        }

        /// Loads `url` and returns `window.version` and whether the load asked `handler` for `/v.js`.
        static func load(_ url: String, in session: WebViewSession, handler: PathRecordingHandler) async throws -> (
            version: String, askedForScript: Bool
        ) {
            let before = handler.paths.count
            try await withTimeLimit(.seconds(20), "loading \(url)") { try await session.load(url) }
            let version = try await session.evaluate("String(window.version)").stringValue ?? ""
            return (version, handler.paths.dropFirst(before).contains("/v.js"))
        }

        @Test func aCacheableScriptComesFromTheMemoryCacheUntilItIsCleared() async throws {
            let harness = try WebKitHarness.get()
            try Self.writePage(in: harness.cachedDirectory, version: 1)
            try await tearingDown(try await harness.makeSession()) { session in
                let first = try await Self.load("app://cached/page.html?1", in: session, handler: harness.cached)
                #expect(first.version == "1")
                #expect(first.askedForScript)

                try Self.writePage(in: harness.cachedDirectory, version: 2)
                let cached = try await Self.load("app://cached/page.html?2", in: session, handler: harness.cached)
                #expect(cached.version == "1", "WebKit reused its cached script")
                #expect(!cached.askedForScript, "the cached script was not asked for")

                try await harness.adapter.clearMemoryCache()
                let cleared = try await Self.load("app://cached/page.html?3", in: session, handler: harness.cached)
                #expect(cleared.version == "2", "after clearing, the new script runs")
                #expect(cleared.askedForScript)
            }
        }

        @Test func aNoCacheScriptIsAskedForOnEveryLoad() async throws {
            let harness = try WebKitHarness.get()
            try Self.writePage(in: harness.revalidatedDirectory, version: 1)
            try await tearingDown(try await harness.makeSession()) { session in
                let first = try await Self.load(
                    "app://revalidated/page.html?1", in: session, handler: harness.revalidated)
                #expect(first.version == "1")

                try Self.writePage(in: harness.revalidatedDirectory, version: 2)
                let second = try await Self.load(
                    "app://revalidated/page.html?2", in: session, handler: harness.revalidated)
                #expect(second.version == "2")
                #expect(second.askedForScript)
            }
        }
    }
#endif
