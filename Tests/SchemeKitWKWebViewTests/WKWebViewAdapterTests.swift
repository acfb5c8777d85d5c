import Foundation
import LoopbackTestSupport
import SchemeKit
import SchemeKitTesting
import SchemeKitWKWebViewStandIn
import Synchronization
import Testing
import WebKitStandIn

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The WKWebView adapter against the stand-in of WebKit's API: WebKit's order, the response as
/// an `HTTPURLResponse`, bounded pieces, stops at every stage while handlers write from other
/// threads, a throwing handler, blank page, CORS and configuration helpers.
///
/// Every test ends by checking the stand-in recorded no violation: none of the five
/// `NSInternalInconsistencyException`s of `WKURLSchemeTask.mm`, and no call off the main thread.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct WKWebViewAdapterTests {
    /// A 1 MiB body written in one chunk from the handler's thread reaches WebKit as one
    /// `HTTPURLResponse` (status, header fields), 16 pieces of 64 KiB, then `didFinish`.
    @Test func aBodyReachesWebKitInBoundedPiecesAfterItsResponse() async throws {
        let registry = SchemeRegistry()
        let body = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try registry.register(
            ClosureHandler { _, writer in
                #expect(!Thread.isMainThread)
                var fields = HTTPFields()
                fields[HTTPField.Name("X-Answer")!] = "42"
                try await writer.writeHead(
                    SchemeResponse(
                        status: .ok, headerFields: fields, mimeType: "application/octet-stream",
                        expectedContentLength: Int64(body.count)))
                try await writer.write(SchemeBody(body))
                try await writer.finish()
                return .handled
            }, for: "app")
        let engine = try ScriptedWebKit(registry: registry, options: WKSchemeAdapterOptions(pieceSize: 64 << 10))
        let task = await engine.get("app://localhost/blob.bin")
        #expect(task.violations.isEmpty)
        guard case .response(let status, let headers) = task.events.first else {
            Issue.record("no response first: \(task.events)")
            return
        }
        #expect(status == 200)
        #expect(headers["x-answer"] == "42")
        #expect(headers["content-type"] == "application/octet-stream")
        #expect(headers["content-length"] == "\(body.count)")
        #expect(task.events.last == .finish)
        #expect(task.events.dropFirst().dropLast().count == 16)
        #expect(task.largestPiece == 64 << 10)
        #expect(task.body == body)
        #expect(engine.adapter.liveTaskCount == 0)
    }

    /// An answer known at once (the registry's 404) is handed to the task inside
    /// `webView(_:start:)`, in WebKit's order.
    @Test func anImmediateAnswerIsDeliveredBeforeStartReturns() throws {
        let registry = SchemeRegistry()
        try registry.register(StaticHandler("a"), for: "app", pathPrefix: "/a.txt")
        let engine = try ScriptedWebKit(registry: registry)
        let task = engine.start(ScriptedWebKit.request("app://localhost/missing"))
        #expect(task.isCompleted)
        #expect(task.status == 404)
        #expect(task.events.last == .finish)
        #expect(task.violations.isEmpty)
    }

    /// `HEAD` gets the head and `didFinish`, no data.
    @Test func aHeadRequestGetsNoData() async throws {
        let registry = SchemeRegistry()
        try registry.register(
            ClosureHandler { _, writer in
                try await writer.respond(.ok, body: Data("hello".utf8))
                return .handled
            }, for: "app")
        let engine = try ScriptedWebKit(registry: registry)
        let task = engine.start(ScriptedWebKit.request("app://localhost/x", method: "HEAD"))
        await task.waitForEnd()
        #expect(task.status == 200)
        #expect(task.byteCount == 0)
        #expect(task.events.last == .finish)
        #expect(task.violations.isEmpty)
    }

    /// WebKit stops the task while the handler has not written its head: nothing reaches the
    /// task, then or later, and the handler's Swift task is cancelled.
    @Test func aStopBeforeTheHeadLetsNothingThrough() async throws {
        let ledger = HandlerLedger()
        let gate = Gate()
        let registry = SchemeRegistry()
        try registry.register(
            ClosureHandler { _, writer in
                try await ledger.run {
                    await gate.wait()
                    try await writer.respond(.ok, body: Data("late".utf8))
                    return .handled
                }
            }, for: "app")
        let engine = try ScriptedWebKit(registry: registry)
        let task = engine.start(ScriptedWebKit.request("app://localhost/slow"))
        #expect(await eventually { @Sendable in ledger.started == 1 })
        engine.stop(task)
        #expect(engine.adapter.liveTaskCount == 0)
        gate.open()
        #expect(await eventually { @Sendable in ledger.settled })
        await drainMainQueue()
        #expect(task.events.isEmpty)
        #expect(task.violations.isEmpty)
        #expect(ledger.cancelled == 1)
    }

    /// WebKit stops the task mid-body (from the main actor, after the third piece arrived) while
    /// the handler writes as fast as it can from another thread: no data after the stop, no finish.
    @Test func aStopMidBodyLetsNothingThroughAfterIt() async throws {
        let ledger = HandlerLedger()
        let registry = SchemeRegistry()
        try registry.register(
            ClosureHandler { _, writer in
                try await ledger.run {
                    try await writer.writeHead(SchemeResponse(status: .ok, mimeType: "text/plain"))
                    while true { try await writer.write(SchemeBody(Data(repeating: 0x61, count: 4096))) }
                }
            }, for: "app")
        let engine = try ScriptedWebKit(registry: registry)
        let stopAt = Locked(0)
        let task = engine.start(ScriptedWebKit.request("app://localhost/endless")) { task, event in
            guard case .data = event else { return }
            let pieces = stopAt.withLock {
                $0 += 1
                return $0
            }
            if pieces == 3 {
                // WebKit decides to stop on a later turn of the main run loop.
                DispatchQueue.main.async { MainActor.assumeIsolated { engine.stop(task) } }
            }
        }
        await task.waitForEnd()
        let eventsAtStop = task.events.count
        #expect(await eventually { @Sendable in ledger.settled })
        await drainMainQueue()
        #expect(task.isStopped)
        #expect(task.events.count == eventsAtStop)
        #expect(!task.events.contains(StandInURLSchemeTask.Event.finish))
        #expect(task.byteCount >= 3 * 4096)
        #expect(task.violations.isEmpty)
    }

    /// After `didFinish`, WebKit calls nothing (assumed: WebKit does not stop a completed task);
    /// an engine that called `webView(_:stop:)` anyway reaches nothing either.
    @Test func aStopAfterTheFinishIsIgnored() async throws {
        let registry = SchemeRegistry()
        try registry.register(
            ClosureHandler { _, writer in
                try await writer.respond(.ok, body: Data("done".utf8))
                return .handled
            }, for: "app")
        let engine = try ScriptedWebKit(registry: registry)
        let task = await engine.get("app://localhost/x")
        #expect(task.events.last == .finish)
        engine.stop(task)  // WebKit's side: no call for a completed task
        engine.adapter.webView(engine.webView, stop: task)  // a stop WebKit would not make
        await drainMainQueue()
        #expect(task.events.count == 3)
        #expect(task.violations.isEmpty)
    }

    /// A handler that throws before its head: `didFailWithError`, no response.
    @Test func aHandlerThatThrowsBeforeItsHeadFailsTheTask() async throws {
        let registry = SchemeRegistry()
        try registry.register(ClosureHandler { _, _ in throw InjectedError("injected") }, for: "app")
        let engine = try ScriptedWebKit(registry: registry)
        let task = await engine.get("app://localhost/x")
        #expect(task.events.count == 1)
        if case .fail = task.events.first {} else { Issue.record("expected didFailWithError: \(task.events)") }
        #expect(task.violations.isEmpty)
        #expect(engine.adapter.liveTaskCount == 0)
    }

    /// A handler that throws mid-body: response, data, then `didFailWithError`.
    @Test func aHandlerThatThrowsMidBodyFailsTheTaskAfterItsData() async throws {
        let registry = SchemeRegistry()
        try registry.register(
            ClosureHandler { _, writer in
                try await writer.writeHead(SchemeResponse(status: .ok))
                try await writer.write(SchemeBody(Data("part".utf8)))
                throw InjectedError("injected")
            }, for: "app")
        let engine = try ScriptedWebKit(registry: registry)
        let task = await engine.get("app://localhost/x")
        #expect(task.events.count == 3)
        #expect(task.status == 200)
        if case .fail = task.events.last {} else { Issue.record("expected didFailWithError last: \(task.events)") }
        #expect(task.violations.isEmpty)
    }

    /// The adapter answers its blank page itself on every scheme, with no handler.
    @Test func theBlankPageIsAnsweredByTheAdapter() async throws {
        let registry = SchemeRegistry()
        try registry.register(ClosureHandler { _, _ in throw InjectedError("injected") }, for: "app")
        let engine = try ScriptedWebKit(registry: registry)
        let task = await engine.get(WKWebViewSchemeAdapter.blankURL(scheme: "app").absoluteString)
        #expect(task.status == 200)
        #expect(String(decoding: task.body, as: UTF8.self).contains("<!doctype html>"))
        #expect(task.violations.isEmpty)
    }

    /// A URL's fragment never reaches the handler (a browser never requests one).
    @Test func theFragmentIsDropped() async throws {
        let registry = SchemeRegistry()
        try registry.register(
            ClosureHandler { request, writer in
                try await writer.respond(.ok, body: Data(request.url.absoluteString.utf8))
                return .handled
            }, for: "app")
        let engine = try ScriptedWebKit(registry: registry)
        let task = await engine.get("app://localhost/clip.webm#t=1")
        #expect(String(decoding: task.body, as: UTF8.self) == "app://localhost/clip.webm")
    }
}
