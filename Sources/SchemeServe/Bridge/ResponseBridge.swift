// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import HTTPTypes
    import NIOCore
    import SchemeKit

    /// The engine sink of one streamed HTTP response: buffers what the handler writes and wakes the
    /// connection's event loop to send it, with back-pressure both ways.
    ///
    /// The producer is the handler's Swift task; the consumer is ``SchemeHTTPHandler`` on the
    /// channel's event loop, which takes everything buffered in one ``take()`` while the channel is
    /// writable. The handler's ``waitForCapacity()`` suspends while more than ``highWaterMark``
    /// bytes wait, so memory per connection stays bounded whatever the response size; the event
    /// loop is woken (``wake``) only when it is idle and something new arrived.
    ///
    /// It is also the handlers' ``SchemeBodyAllocator`` — a file chunk is read straight into a NIO
    /// `ByteBuffer`, lent as a ``ByteBufferBody`` and recognised by that type when it comes back, so
    /// the same memory goes to the socket — and it takes file regions (sent with `sendfile`) when the
    /// response's ``ResponsePlan`` needs no bytes (no gzip, no script injection).
    ///
    /// The plan's body transforms run here, on the handler's thread, chunk by chunk as it writes:
    /// gzip (one zlib stream per response, at the fastest level) and the live-reload script (an HTML
    /// page is held until its end, then the script goes in before `</body>`). The event loop only
    /// sends bytes, so a large compressible file never costs it more than a write, and what is
    /// buffered (and so what the handler waits on) is what goes on the wire.
    final class ResponseBridge: SchemeTaskSink, SchemeBodyAllocator {
        /// A body chunk on its way to the channel.
        enum Chunk: Sendable {
            case bytes(ByteBuffer)
            case region(SchemeFileRegion)
        }

        /// How the response began, as the event loop sees it.
        enum Start: Sendable {
            /// The head, with the plan made for it.
            case head(SchemeResponse, ResponsePlan)
            /// The task failed (or finished) before any head.
            case failed(any Error)
        }

        /// How the body ended.
        enum End: Sendable {
            case finished
            case failed(any Error)
        }

        /// What one ``take()`` hands the event loop: the start (once), the chunks buffered since,
        /// and the end when it came.
        struct Batch: Sendable {
            var start: Start?
            var chunks: [Chunk] = []
            var end: End?

            var isEmpty: Bool { start == nil && chunks.isEmpty && end == nil }
        }

        private struct State: Sendable {
            var start: Start?
            var startTaken = false
            var plan: ResponsePlan?
            var chunks: [Chunk] = []
            var buffered = 0
            var end: End?
            var endTaken = false
            /// Writers waiting for room: one per concurrent ``waitForCapacity()``, all released together.
            var producers: [CheckedContinuation<Void, Never>] = []
            /// The event loop found nothing to take and waits for a ``wake``.
            var consumerIdle = true
            var consumerGone = false
        }

        /// The body transforms of the plan, used only by the producer (the task's writes arrive one
        /// at a time, in order, under the task's lock).
        private final class Transform: @unchecked Sendable {
            var gzip: GzipStream?
            var script: Data?
            var html = Data()
            /// Nothing is written after a failed compression: the response is cut short.
            var failed = false
        }

        private let transform = Transform()

        /// Bytes buffered before the handler is made to wait. File regions count as nothing: they
        /// are not memory.
        let highWaterMark: Int
        private let state = Locked(State())
        private let planner: @Sendable (SchemeResponse) -> ResponsePlan
        private let wake: @Sendable () -> Void

        /// - Parameters:
        ///   - highWaterMark: Bytes buffered before the handler waits. Default: 256 KiB.
        ///   - planner: Makes the plan for the head, on the handler's thread when the head arrives.
        ///   - wake: Schedules ``take()`` on the event loop; called when the loop is idle and
        ///     something arrived.
        init(
            highWaterMark: Int = 256 << 10,
            planner: @escaping @Sendable (SchemeResponse) -> ResponsePlan,
            wake: @escaping @Sendable () -> Void
        ) {
            self.highWaterMark = highWaterMark
            self.planner = planner
            self.wake = wake
        }

        // MARK: SchemeTaskSink (called under the task's lock: never blocks)

        func receive(_ response: SchemeResponse) {
            var plan = planner(response)
            if plan.transforms.gzip {
                if let stream = try? GzipStream() {
                    transform.gzip = stream
                } else {
                    // No zlib stream: the identity body, as the head then says, with the file's
                    // strong tag again unless the live-reload script still changes the bytes.
                    plan.transforms.gzip = false
                    plan.fields[.contentEncoding] = nil
                    if plan.transforms.injectScript == nil, let etag = plan.fields[.eTag], etag.hasPrefix("W/") {
                        plan.fields[.eTag] = String(etag.dropFirst(2))
                    }
                }
            }
            transform.script = plan.transforms.injectScript
            update { state in
                state.plan = plan
                state.start = .head(response, plan)
            }
        }

        func receive(_ body: SchemeBody) {
            if transform.script != nil {
                transform.html.append(body.data)
                return
            }
            if transform.gzip != nil {
                return enqueue(compressed(body.data, finish: false))
            }
            let chunk: Chunk
            if let region = body.fileRegion {
                chunk = .region(region)
            } else if let buffer = body.engineBuffer(as: ByteBufferBody.self)?.buffer {
                chunk = .bytes(buffer)
            } else {
                chunk = .bytes(body.withUnsafeBytes { Self.allocator.buffer(bytes: $0) })
            }
            enqueue([chunk])
        }

        /// `data` through the response's zlib stream (and its end, with `finish`).
        private func compressed(_ data: Data, finish: Bool) -> [Chunk] {
            guard let gzip = transform.gzip, !transform.failed else { return [] }
            guard let buffers = try? gzip.compress(data, finish: finish) else {
                transform.failed = true
                return []
            }
            return buffers.map { .bytes($0) }
        }

        private func enqueue(_ chunks: [Chunk]) {
            guard !chunks.isEmpty else { return }
            update { state in
                guard !state.consumerGone else { return }
                for chunk in chunks {
                    state.chunks.append(chunk)
                    if case .bytes(let buffer) = chunk { state.buffered += buffer.readableBytes }
                }
            }
        }

        func finish() {
            if let script = transform.script {
                transform.script = nil
                let page = ResponseTransforms.inject(script, into: transform.html)
                transform.html = Data()
                if transform.gzip != nil {
                    enqueue(compressed(page, finish: false))
                } else if !page.isEmpty {
                    enqueue([.bytes(Self.allocator.buffer(bytes: page))])
                }
            }
            if transform.gzip != nil { enqueue(compressed(Data(), finish: true)) }
            // A failed compression cut the body short: the client must not take it as complete.
            end(transform.failed ? .failed(ResponseTransformError()) : .finished)
        }

        func fail(_ error: any Error) { end(.failed(error)) }

        private func end(_ end: End) {
            update { state in
                state.end = end
                if state.start == nil {
                    if case .failed(let error) = end {
                        state.start = .failed(error)
                    } else {
                        state.start = .failed(SchemeTaskError.noResponse)
                    }
                }
            }
        }

        /// Applies `change`, then wakes the event loop if it was idle.
        private func update(_ change: (inout State) -> Void) {
            let wakes = state.withLock { state -> Bool in
                change(&state)
                guard state.consumerIdle, !state.consumerGone else { return false }
                state.consumerIdle = false
                return true
            }
            if wakes { wake() }
        }

        var bodyAllocator: (any SchemeBodyAllocator)? { self }

        /// File regions are welcome once the head's plan needs no bytes of the body.
        var acceptsFileRegions: Bool { state.withLock { $0.plan?.acceptsFileRegions ?? false } }

        private static let allocator = ByteBufferAllocator()

        func makeBody<Failure: Error>(
            count: Int, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
        ) throws(Failure) -> SchemeBody {
            precondition(count > 0, "a body buffer needs a positive count")
            var buffer = Self.allocator.buffer(capacity: count)
            var outcome: Result<Int, Failure> = .success(0)
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
                do throws(Failure) {
                    let written = try fill(UnsafeMutableRawBufferPointer(rebasing: raw[..<count]))
                    precondition(
                        (0...count).contains(written), "fill wrote \(written) bytes into a \(count)-byte buffer")
                    outcome = .success(written)
                    return written
                } catch {
                    outcome = .failure(error)
                    return 0
                }
            }
            let written = try outcome.get()
            guard written > 0 else { return .empty }
            return SchemeBody(engineBuffer: ByteBufferBody(buffer: buffer))
        }

        /// ``waitForCapacity()`` calls suspended right now for room. For tests, which wait for this
        /// state instead of for a time.
        var waitingProducers: Int { state.withLock { $0.producers.count } }

        func waitForCapacity() async {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let proceed = state.withLock { state -> Bool in
                        if state.buffered <= highWaterMark || state.consumerGone || Task.isCancelled { return true }
                        state.producers.append(continuation)
                        return false
                    }
                    if proceed { continuation.resume() }
                }
            } onCancel: {
                releaseProducer()
            }
        }

        private func releaseProducer() {
            let producers = state.withLock { state in
                defer { state.producers = [] }
                return state.producers
            }
            for producer in producers { producer.resume() }
        }

        // MARK: Event-loop side

        /// Takes everything that arrived since the last call; when nothing did, marks the loop idle
        /// so the next arrival wakes it. Releases a handler waiting for capacity.
        func take() -> Batch {
            let (batch, producers) = state.withLock { state -> (Batch, [CheckedContinuation<Void, Never>]) in
                var batch = Batch()
                if !state.startTaken, let start = state.start {
                    state.startTaken = true
                    batch.start = start
                }
                if state.startTaken {
                    batch.chunks = state.chunks
                    state.chunks = []
                    state.buffered = 0
                    if !state.endTaken, let end = state.end {
                        state.endTaken = true
                        batch.end = end
                    }
                }
                if batch.isEmpty { state.consumerIdle = true }
                defer { state.producers = [] }
                return (batch, state.producers)
            }
            for producer in producers { producer.resume() }
            return batch
        }

        /// The client went away: drop what is buffered, never wake the loop again, and release a
        /// waiting handler.
        func cancelConsumer() {
            let producers = state.withLock { state in
                state.consumerGone = true
                state.chunks = []
                state.buffered = 0
                defer { state.producers = [] }
                return state.producers
            }
            for producer in producers { producer.resume() }
        }
    }

    /// The on-the-fly compression of a streamed body failed midway.
    struct ResponseTransformError: Error, CustomStringConvertible {
        var description: String { "the response body could not be compressed" }
    }
#endif
