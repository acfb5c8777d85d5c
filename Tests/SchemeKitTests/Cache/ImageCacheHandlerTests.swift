import Foundation
import HTTPTypes
import SchemeKitTesting
import Testing

@testable import SchemeKit

/// An upstream that counts its calls and answers with a scripted response.
private struct ScriptedUpstream: SchemeHandler {
    var status: HTTPResponse.Status = .ok
    var mimeType = "image/png"
    var body = testBytes(2048)
    let calls = CacheCounter()

    var name: String { "upstream" }

    func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
        calls.increment()
        try await writer.writeHead(
            SchemeResponse(status: status, mimeType: mimeType, expectedContentLength: Int64(body.count)))
        if request.method == .get {
            // Two chunks, as a network response would arrive.
            try await writer.write(body.prefix(body.count / 2))
            try await writer.write(body.suffix(from: body.count / 2))
        }
        try await writer.finish()
        return .handled
    }
}

struct ImageCacheHandlerTests {
    private func makeRegistry(
        _ handler: ImageCacheHandler<CacheTestClock>
    ) throws -> SchemeRegistry {
        let registry = SchemeRegistry()
        try registry.register(handler, for: "app")
        return registry
    }

    private func run(
        _ registry: SchemeRegistry, _ url: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:]
    ) async throws -> (RecordingSink, SchemeTask) {
        let sink = RecordingSink()
        let task = registry.task(for: try SchemeRequest(url, method: method, headerFields: headers), sink: sink)
        await task.run()
        return (sink, task)
    }

    private func memoryCache() -> ImageCache<CacheTestClock> {
        ImageCache(disk: nil, clock: CacheTestClock())
    }

    @Test func servesAnImageTheNativeSidePut() async throws {
        let cache = memoryCache()
        cache.put(
            testBytes(5000), mimeType: "image/jpeg",
            forKey: ImageCacheKey(url: URL(string: "https://cdn.example/p/a.jpg")!))
        let registry = try makeRegistry(ImageCacheHandler(cache: cache))
        let (sink, task) = try await run(registry, "app://cdn.example/p/a.jpg")
        #expect(sink.response?.status == .ok)
        #expect(sink.response?.headerFields[.contentType] == "image/jpeg")
        #expect(sink.response?.headerFields[.contentLength] == "5000")
        #expect(sink.body == testBytes(5000))
        #expect(sink.isFinished)
        #expect(sink.violations.isEmpty)
        #expect(task.respondingHandler == "image-cache")
    }

    @Test func servesFromDiskInANewInstance() async throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        ImageCache(disk: .init(directory: directory.url), clock: CacheTestClock())
            .put(
                testBytes(777), mimeType: "image/gif",
                forKey: ImageCacheKey(url: URL(string: "https://cdn.example/x.gif")!))
        let cache = ImageCache(disk: .init(directory: directory.url), clock: CacheTestClock())
        let registry = try makeRegistry(ImageCacheHandler(cache: cache))
        let (sink, _) = try await run(registry, "app://cdn.example/x.gif")
        #expect(sink.response?.headerFields[.contentType] == "image/gif")
        #expect(sink.body == testBytes(777))
        #expect(cache.get(forKey: ImageCacheKey(url: URL(string: "app://cdn.example/x.gif")!))?.tier == .memory)
    }

    @Test func headGetsTheHeadersWithoutABody() async throws {
        let cache = memoryCache()
        cache.put(
            testBytes(100), mimeType: "image/png", forKey: ImageCacheKey(url: URL(string: "https://cdn.example/a.png")!)
        )
        let registry = try makeRegistry(ImageCacheHandler(cache: cache))
        let (sink, _) = try await run(registry, "app://cdn.example/a.png", method: .head)
        #expect(sink.response?.status == .ok)
        #expect(sink.response?.headerFields[.contentLength] == "100")
        #expect(sink.body.isEmpty)
        #expect(sink.isFinished)
    }

    @Test func acceptHeaderMakesAnExtensionlessPathAnImage() async throws {
        let cache = memoryCache()
        cache.put(
            testBytes(10), mimeType: "image/webp",
            forKey: ImageCacheKey(url: URL(string: "https://cdn.example/avatar/42")!))
        let registry = try makeRegistry(ImageCacheHandler(cache: cache))
        let (sink, _) = try await run(registry, "app://cdn.example/avatar/42", headers: [.accept: "image/webp,*/*"])
        #expect(sink.body == testBytes(10))
        let (plain, _) = try await run(registry, "app://cdn.example/avatar/42", headers: [.accept: "text/html"])
        #expect(plain.response?.status == .notFound)
    }

    @Test func aMissGoesUpstreamIsStoredAndTheNextRequestHitsTheCache() async throws {
        let directory = CacheTemporaryDirectory()
        defer { directory.remove() }
        let upstream = ScriptedUpstream()
        let cache = ImageCache(disk: .init(directory: directory.url), clock: CacheTestClock())
        let registry = try makeRegistry(ImageCacheHandler(cache: cache, upstream: upstream))
        let (first, _) = try await run(registry, "app://cdn.example/new.png")
        #expect(first.body == upstream.body)
        #expect(first.violations.isEmpty)
        #expect(upstream.calls.count == 1)
        #expect(
            cache.get(forKey: ImageCacheKey(url: URL(string: "https://cdn.example/new.png")!))?.data == upstream.body)

        let (second, task) = try await run(registry, "app://cdn.example/new.png")
        #expect(second.body == upstream.body)
        #expect(second.response?.headerFields[.contentType] == "image/png")
        #expect(upstream.calls.count == 1)
        #expect(task.respondingHandler == "image-cache")
        // Written through to disk too.
        cache.purgeMemory()
        #expect(cache.get(forKey: ImageCacheKey(url: URL(string: "https://cdn.example/new.png")!))?.tier == .disk)
    }

    enum Unstorable: String, CaseIterable, CustomTestStringConvertible {
        case notFound, serverError, notAnImage, tooLarge, noStore
        var testDescription: String { rawValue }
    }

    @Test(arguments: Unstorable.allCases)
    func unstorableResponsesPassThroughAndAreNotStored(_ kind: Unstorable) async throws {
        var upstream = ScriptedUpstream()
        var maximum = 16 << 20
        switch kind {
        case .notFound: upstream.status = .notFound
        case .serverError: upstream.status = .internalServerError
        case .notAnImage: upstream.mimeType = "text/html"
        case .tooLarge: maximum = 1000
        case .noStore: upstream.mimeType = "image/png"
        }
        let handler: ImageCacheHandler<CacheTestClock>
        let cache = memoryCache()
        if kind == .noStore {
            let inner = upstream
            let noStore = ClosureHandler { request, writer in
                try await writer.respond(
                    SchemeResponse(status: .ok, headerFields: [.cacheControl: "no-store"], mimeType: "image/png"),
                    body: inner.body)
                inner.calls.increment()
                return .handled
            }
            handler = ImageCacheHandler(cache: cache, upstream: noStore, maximumStoredSize: maximum)
        } else {
            handler = ImageCacheHandler(cache: cache, upstream: upstream, maximumStoredSize: maximum)
        }
        let registry = try makeRegistry(handler)
        for _ in 0..<2 {
            let (sink, _) = try await run(registry, "app://cdn.example/a.png")
            #expect(sink.body == upstream.body)
            #expect(sink.violations.isEmpty)
        }
        #expect(upstream.calls.count == 2)
        #expect(cache.totalSize.total == 0)
    }

    @Test func headMissGoesUpstreamAndStoresNothing() async throws {
        let upstream = ScriptedUpstream()
        let cache = memoryCache()
        let registry = try makeRegistry(ImageCacheHandler(cache: cache, upstream: upstream))
        let (sink, _) = try await run(registry, "app://cdn.example/a.png", method: .head)
        #expect(sink.response?.status == .ok)
        #expect(sink.body.isEmpty)
        #expect(upstream.calls.count == 1)
        #expect(cache.totalSize.total == 0)
    }

    @Test func nonImageRequestsAndMissesWithoutUpstreamPass() async throws {
        let upstream = ScriptedUpstream()
        let registry = try makeRegistry(ImageCacheHandler(cache: memoryCache(), upstream: upstream))
        let (page, _) = try await run(registry, "app://cdn.example/index.html")
        #expect(page.response?.status == .notFound)
        #expect(upstream.calls.count == 0)

        let bare = try makeRegistry(ImageCacheHandler(cache: memoryCache()))
        let (miss, task) = try await run(bare, "app://cdn.example/missing.png")
        #expect(miss.response?.status == .notFound)
        #expect(task.respondingHandler == "not-found")
    }

    @Test func anUpstreamThatFailsMidBodyStoresNothing() async throws {
        struct Broken: Error {}
        let cache = memoryCache()
        let upstream = ClosureHandler { _, writer in
            try await writer.writeHead(SchemeResponse(status: .ok, mimeType: "image/png", expectedContentLength: 100))
            try await writer.write(testBytes(50))
            throw Broken()
        }
        let registry = try makeRegistry(ImageCacheHandler(cache: cache, upstream: upstream))
        let (sink, _) = try await run(registry, "app://cdn.example/a.png")
        #expect(sink.failure == "Broken()")
        #expect(cache.totalSize.total == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func aStopMidUpstreamStoresNothingAndWritesNothingAfterTheStop() async throws {
        let cache = memoryCache()
        let (wrote, wroteContinuation) = AsyncStream.makeStream(of: Void.self)
        let lateWriteThrew = CacheCounter()
        let upstream = ClosureHandler { _, writer in
            try await writer.writeHead(SchemeResponse(status: .ok, mimeType: "image/png", expectedContentLength: 200))
            try await writer.write(testBytes(100))
            wroteContinuation.yield()
            // Wait for the stop (bounded: the sleep ends with the cancellation or after 10 s).
            try? await Task.sleep(for: .seconds(10))  // hangs until stopped (at most 10 s)
            do {
                try await writer.write(testBytes(100))
                try await writer.finish()
            } catch {
                lateWriteThrew.increment()
                throw error
            }
            return .handled
        }
        let registry = try makeRegistry(ImageCacheHandler(cache: cache, upstream: upstream))
        let sink = RecordingSink()
        let task = registry.task(for: try SchemeRequest("app://cdn.example/a.png"), sink: sink)
        let runner = Task { await task.run() }
        for await _ in wrote { break }
        sink.markStopped()
        task.stop()
        await runner.value
        #expect(lateWriteThrew.count == 1)
        #expect(sink.violations.isEmpty)
        #expect(sink.terminalCount == 0)
        #expect(sink.body.count == 100)
        #expect(cache.totalSize.total == 0)
        #expect(cache.get(forKey: ImageCacheKey(url: URL(string: "https://cdn.example/a.png")!)) == nil)
    }
}
