import Foundation
import LoopbackTestSupport
import Synchronization
import Testing

@testable import SchemeKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pieces of back-pressure, without 1 GiB: the preload window, the resume validator, the
/// callback task's bounded queue.
struct BackPressureTests {
    func chunks(_ update: PreloadBuffer.Update?) -> [Data]? {
        if case .chunks(let chunks) = update { return chunks }
        return nil
    }

    // MARK: Preload window

    @Test func anUnclaimedPreloadStopsItsUpstreamAtTheWindow() {
        var buffer = PreloadBuffer(preloadHold: true, highWatermark: 10, lowWatermark: 4)
        buffer.receive(head: SchemeResponse(status: .ok))
        _ = buffer.receive(Data(count: 6))
        #expect(!buffer.upstreamMustWait)
        _ = buffer.receive(Data(count: 6))
        #expect(buffer.upstreamMustWait)
        // Nothing is dropped while the preload waits for its task: it must get the whole body.
        #expect(buffer.bufferedBytes == 12)
        #expect(!buffer.isTruncated)
    }

    @Test func theUpstreamFollowsTheSlowestReader() throws {
        var buffer = PreloadBuffer(preloadHold: false, highWatermark: 10, lowWatermark: 4)
        buffer.receive(head: SchemeResponse(status: .ok))
        let fast = try #require(buffer.attach() as (id: Int, claimedPreload: Bool)?).id
        let slow = try #require(buffer.attach() as (id: Int, claimedPreload: Bool)?).id
        _ = buffer.next(for: fast, headSent: false)
        _ = buffer.next(for: slow, headSent: false)
        _ = buffer.receive(Data(count: 6))
        _ = buffer.receive(Data(count: 6))
        _ = buffer.next(for: fast, headSent: true)
        // The fast reader has everything; the slow one is 12 bytes behind.
        #expect(buffer.upstreamMustWait)
        #expect(!buffer.upstreamMayResume)
        #expect(chunks(buffer.next(for: slow, headSent: true).update)?.count == 2)
        #expect(buffer.upstreamMayResume)
    }

    @Test func aClaimedFetchDropsWhatEveryReaderPassedAndTakesNoLateJoiner() throws {
        var buffer = PreloadBuffer(preloadHold: true, highWatermark: 10, lowWatermark: 4)
        buffer.receive(head: SchemeResponse(status: .ok))
        let reader = try #require(buffer.attach() as (id: Int, claimedPreload: Bool)?)
        #expect(reader.claimedPreload)
        _ = buffer.next(for: reader.id, headSent: false)
        // Within the window the start is kept: a joiner still gets the whole body.
        _ = buffer.receive(Data(count: 8))
        _ = buffer.next(for: reader.id, headSent: true)
        #expect(buffer.bufferedBytes == 8)
        let joiner = try #require(buffer.attach() as (id: Int, claimedPreload: Bool)?)
        _ = buffer.detach(joiner.id)
        // Past it, what the reader passed is dropped: the fetch holds only the unread window…
        _ = buffer.receive(Data(count: 8))
        #expect(buffer.bufferedBytes == 8)
        #expect(buffer.isTruncated)
        // …and a late request gets no cursor (the preloader starts a fetch of its own for it).
        #expect(buffer.attach() == nil)
        for _ in 0..<100 {
            _ = buffer.next(for: reader.id, headSent: true)
            _ = buffer.receive(Data(count: 8))
            #expect(buffer.bufferedBytes <= 16)
        }
    }

    // MARK: Resuming on Linux

    func response(_ status: Int, _ fields: [String: String]) -> HTTPURLResponse {
        HTTPURLResponse(
            url: URL(string: "http://o/x")!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)!
    }

    @Test func aResponseIsResumableOnlyWithRangesAndAValidator() {
        let get = URLRequest(url: URL(string: "http://o/x")!)
        let tag = "\"v1\""
        #expect(
            URLSessionExchange.resumeValidator(
                for: response(200, ["Accept-Ranges": "bytes", "ETag": tag]), request: get) == tag)
        #expect(
            URLSessionExchange.resumeValidator(
                for: response(200, ["Accept-Ranges": "bytes", "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"]),
                request: get) == "Sun, 06 Nov 1994 08:49:37 GMT")
        // A weak ETag cannot go in If-Range (RFC 9110 §13.1.5), nor can no validator at all.
        #expect(
            URLSessionExchange.resumeValidator(
                for: response(200, ["Accept-Ranges": "bytes", "ETag": "W/\"v1\""]), request: get) == nil)
        #expect(URLSessionExchange.resumeValidator(for: response(200, ["ETag": tag]), request: get) == nil)
        #expect(
            URLSessionExchange.resumeValidator(
                for: response(200, ["Accept-Ranges": "none", "ETag": tag]), request: get) == nil)
        #expect(
            URLSessionExchange.resumeValidator(
                for: response(206, ["Accept-Ranges": "bytes", "ETag": tag]), request: get) == nil)
        #expect(
            URLSessionExchange.resumeValidator(
                for: response(200, ["Accept-Ranges": "bytes", "ETag": tag, "Content-Encoding": "gzip"]), request: get)
                == nil)
        var post = get
        post.httpMethod = "POST"
        #expect(
            URLSessionExchange.resumeValidator(
                for: response(200, ["Accept-Ranges": "bytes", "ETag": tag]), request: post) == nil)
    }

    @Test func theContentRangeStartIsRead() {
        #expect(URLSessionExchange.contentRangeStart(response(206, ["Content-Range": "bytes 100-199/200"])) == 100)
        #expect(URLSessionExchange.contentRangeStart(response(206, ["Content-Range": "items 1-2/3"])) == nil)
        #expect(URLSessionExchange.contentRangeStart(response(206, [:])) == nil)
    }

    // MARK: Callback task

    @Test(.timeLimit(.minutes(1)))
    func aCallbackProducerOnItsOwnThreadBlocksAtTheBoundUntilTheEngineDrains() async throws {
        let task = CallbackSchemeTask(request: try SchemeRequest("app://x/"), bufferLimit: 1000)
        let sent = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
        Thread {
            for _ in 0..<10 {
                task.didReceive(Data(count: 400))
                sent.add(1, ordering: .relaxed)
            }
            task.didFinish()
            done.store(true, ordering: .relaxed)
        }.start()
        // Three chunks fill the queue to 1200 ≥ 1000: the producer blocks there, in its fourth call.
        #expect(await eventually { task.blockedProducers == 1 })
        #expect(sent.load(ordering: .relaxed) == 3)
        #expect(task.queuedBytes == 1200)
        var received = 0
        while let event = await task.nextEvent() {
            if case .body(let data) = event { received += data.count }
            #expect(task.queuedBytes <= 1200)
        }
        #expect(received == 4000)
        #expect(await eventually { done.load(ordering: .relaxed) })
    }

    @Test(.timeLimit(.minutes(1)))
    func aStopReleasesABlockedProducerAndDropsItsBytes() async throws {
        let task = CallbackSchemeTask(request: try SchemeRequest("app://x/"), bufferLimit: 100)
        _ = task.markStarted()
        let returned = Atomic<Int>(0)
        Thread {
            for _ in 0..<5 {
                task.didReceive(Data(count: 100))
                returned.add(1, ordering: .relaxed)
            }
        }.start()
        // The first chunk fills the queue: the producer blocks in its second call.
        #expect(await eventually { task.blockedProducers == 1 })
        #expect(returned.load(ordering: .relaxed) == 1)
        #expect(task.markStopped())
        #expect(await eventually { returned.load(ordering: .relaxed) == 5 })
        #expect(task.blockedProducers == 0)
        #expect(task.queuedBytes == 0)
        let after = await task.nextEvent()
        #expect(after == nil)
    }

    @Test(.timeLimit(.minutes(1)))
    func anAsyncWriterSuspendsAtTheBoundInsteadOfBlocking() async throws {
        let task = CallbackSchemeTask(request: try SchemeRequest("app://x/"), bufferLimit: 100)
        let written = Atomic<Int>(0)
        let producer = Task {
            for _ in 0..<4 {
                await task.write(Data(count: 60))
                written.add(1, ordering: .relaxed)
            }
            task.didFinish()
        }
        // Two writes queue 120 ≥ 100 bytes: the third suspends.
        #expect(await eventually { task.suspendedWriters == 1 })
        #expect(written.load(ordering: .relaxed) == 2)
        #expect(task.queuedBytes == 120)
        var received = 0
        while let event = await task.nextEvent() {
            if case .body(let data) = event { received += data.count }
        }
        await producer.value
        #expect(received == 240)
    }

    @Test(.timeLimit(.minutes(1)))
    func didReceiveFromAsyncCodeFailsTheTaskPastTheOverflowLimit() async throws {
        let task = CallbackSchemeTask(request: try SchemeRequest("app://x/"), bufferLimit: 100)
        #expect(task.overflowLimit == 1600)
        // From a Swift task didReceive cannot wait: it queues up to the hard bound, then fails.
        await Task {
            for _ in 0..<10 { task.didReceive(Data(count: 500)) }
            task.didFinish()
        }.value
        #expect(task.queuedBytes == 1500)
        var received = 0
        var failure: (any Error)?
        while let event = await task.nextEvent() {
            switch event {
            case .body(let data): received += data.count
            case .fail(let error): failure = error
            default: break
            }
        }
        #expect(received == 1500)
        let overflow = try #require(failure as? CallbackSchemeTask.Overflow)
        #expect(overflow.limit == 1600)
        #expect(overflow.description.contains("write(_:)"))
    }

    /// A ported handler that answers synchronously inside `start`, 8 MiB in 64 KiB chunks.
    final class AnswerInStartHandler: CallbackSchemeHandler {
        let maximumQueued = Atomic<Int>(0)

        func start(_ task: CallbackSchemeTask) {
            task.didReceive(SchemeResponse(status: .ok, mimeType: "application/octet-stream"))
            for _ in 0..<128 {
                task.didReceive(Data(count: 64 << 10))
                _ = maximumQueued.max(task.queuedBytes, ordering: .relaxed)
            }
            task.didFinish()
        }

        func stop(_ task: CallbackSchemeTask) {}
    }

    @Test(.timeLimit(.minutes(1)))
    func aHandlerAnsweringInsideStartIsPacedByTheEngine() async throws {
        let handler = AnswerInStartHandler()
        let registry = SchemeRegistry()
        try registry.register(CallbackHandlerAdapter(handler), for: "app")
        let sink = ThrottledSink(bytesPerSecond: Double(64 << 20), checksPattern: false)
        await registry.handle(try SchemeRequest("app://x/answer"), sink: sink)
        #expect(sink.finished)
        #expect(sink.bytes == 8 << 20)
        // start runs off Swift's pool, so it blocks at the bound instead of queueing all 8 MiB.
        #expect(handler.maximumQueued.load(ordering: .relaxed) <= (1 << 20) + (64 << 10))
    }
}
