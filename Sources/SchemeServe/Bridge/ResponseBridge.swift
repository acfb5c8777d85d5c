// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import NIOCore
    import SchemeKit
    import Synchronization

    /// The engine sink of one HTTP request: buffers what the handler writes, hands the head to the
    /// responder and the body chunks to Hummingbird's response writer, and applies back-pressure.
    ///
    /// The handler's ``waitForCapacity()`` suspends while more than ``highWaterMark`` bytes wait for
    /// a slow client, so memory per connection stays bounded whatever the response size. The HTTP
    /// side drains everything buffered in one batch. When the client goes away the responder stops
    /// the task; ``cancelConsumer()`` then releases a handler waiting for capacity.
    ///
    /// It is also the handlers' ``SchemeBodyAllocator``: a file chunk is read straight into a NIO
    /// `ByteBuffer`, lent to the handler as a ``ByteBufferBody`` and recognised by that type when the
    /// handler writes it, so the same memory goes to the socket without a copy. Any other body is
    /// copied into a buffer.
    final class ResponseBridge: SchemeTaskSink, SchemeBodyAllocator {
        /// How the task began: with a head, or with a failure / a finish before any head.
        enum Start: Sendable {
            case head(SchemeResponse)
            case failed(any Error)
        }

        /// What the HTTP side gets from one ``next()``.
        struct Batch: Sendable {
            var chunks: [ByteBuffer]
            var end: End?
        }

        /// How the body ended.
        enum End: Sendable {
            case finished
            case failed(any Error)
        }

        fileprivate struct State: Sendable {
            var start: Start?
            var startWaiter: CheckedContinuation<Start, Never>?
            var chunks: [ByteBuffer] = []
            var buffered = 0
            var end: End?
            var consumer: CheckedContinuation<Batch, Never>?
            var producer: CheckedContinuation<Void, Never>?
            var consumerGone = false
        }

        /// Bytes buffered before the handler is made to wait.
        let highWaterMark: Int
        private let state = Locked(State())

        init(highWaterMark: Int = 256 << 10) {
            self.highWaterMark = highWaterMark
        }

        // MARK: SchemeTaskSink (called under the task's lock: never blocks)

        func receive(_ response: SchemeResponse) {
            let waiter = state.withLock { state -> CheckedContinuation<Start, Never>? in
                state.start = .head(response)
                defer { state.startWaiter = nil }
                return state.startWaiter
            }
            waiter?.resume(returning: .head(response))
        }

        func receive(_ body: SchemeBody) {
            let buffer =
                body.engineBuffer(as: ByteBufferBody.self)?.buffer
                ?? body.withUnsafeBytes { Self.allocator.buffer(bytes: $0) }
            let resume = state.withLock { state -> (CheckedContinuation<Batch, Never>, Batch)? in
                guard !state.consumerGone else { return nil }
                state.chunks.append(buffer)
                state.buffered += buffer.readableBytes
                return state.takeBatchForWaitingConsumer()
            }
            if let (consumer, batch) = resume { consumer.resume(returning: batch) }
        }

        func finish() { end(.finished) }

        func fail(_ error: any Error) { end(.failed(error)) }

        private func end(_ end: End) {
            let (starter, startValue, resume) = state.withLock {
                state -> (CheckedContinuation<Start, Never>?, Start?, (CheckedContinuation<Batch, Never>, Batch)?) in
                state.end = end
                var starter: CheckedContinuation<Start, Never>?
                var startValue: Start?
                if state.start == nil {
                    if case .failed(let error) = end {
                        startValue = .failed(error)
                    } else {
                        startValue = .failed(SchemeTaskError.noResponse)
                    }
                    state.start = startValue
                    starter = state.startWaiter
                    state.startWaiter = nil
                }
                return (starter, startValue, state.takeBatchForWaitingConsumer())
            }
            if let starter, let startValue { starter.resume(returning: startValue) }
            if let (consumer, batch) = resume { consumer.resume(returning: batch) }
        }

        var bodyAllocator: (any SchemeBodyAllocator)? { self }

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

        func waitForCapacity() async {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let proceed = state.withLock { state -> Bool in
                        if state.buffered <= highWaterMark || state.consumerGone || Task.isCancelled { return true }
                        state.producer = continuation
                        return false
                    }
                    if proceed { continuation.resume() }
                }
            } onCancel: {
                releaseProducer()
            }
        }

        private func releaseProducer() {
            let producer = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.producer = nil }
                return state.producer
            }
            producer?.resume()
        }

        // MARK: HTTP side

        /// Waits for the head (or for a failure before it); when the calling task is cancelled first,
        /// stops `task` and returns ``Start/failed(_:)`` with a `CancellationError`.
        ///
        /// A stopped task delivers nothing more (not even a terminal event), so the cancellation
        /// itself must end the wait: otherwise the responder would stay suspended for good.
        func start(stopping task: SchemeTask) async -> Start {
            // A handler that answered without suspending (small files, cache hits) is already done.
            if let start = state.withLock({ $0.start }) { return start }
            return await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Start, Never>) in
                    let ready = state.withLock { state -> Start? in
                        if let start = state.start { return start }
                        state.startWaiter = continuation
                        return nil
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            } onCancel: {
                task.stop()
                cancelStart()
            }
        }

        /// Ends a wait for the head with a `CancellationError`, unless the task began already.
        private func cancelStart() {
            let waiter = state.withLock { state -> CheckedContinuation<Start, Never>? in
                guard state.start == nil else { return nil }
                state.start = .failed(CancellationError())
                defer { state.startWaiter = nil }
                return state.startWaiter
            }
            waiter?.resume(returning: .failed(CancellationError()))
        }

        /// The whole body, when the task already finished and everything is buffered (fast path).
        func completedBody() -> [ByteBuffer]? {
            state.withLock { state in
                guard case .finished = state.end else { return nil }
                let chunks = state.chunks
                state.chunks = []
                state.buffered = 0
                return chunks
            }
        }

        /// Waits for the next chunks (all that are buffered) or the end of the body.
        func next() async -> Batch {
            let batch = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Batch, Never>) in
                    let ready = state.withLock { state -> Batch? in
                        if !state.chunks.isEmpty || state.end != nil || state.consumerGone || Task.isCancelled {
                            return state.takeBatch()
                        }
                        state.consumer = continuation
                        return nil
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            } onCancel: {
                cancelConsumer()
            }
            // The buffer was just drained: a handler waiting for capacity may go on.
            releaseProducer()
            return batch
        }

        /// The client went away: drop buffered data and release a waiting handler.
        func cancelConsumer() {
            let (producer, consumer) = state.withLock {
                state -> (CheckedContinuation<Void, Never>?, CheckedContinuation<Batch, Never>?) in
                state.consumerGone = true
                state.chunks = []
                state.buffered = 0
                defer {
                    state.producer = nil
                    state.consumer = nil
                }
                return (state.producer, state.consumer)
            }
            producer?.resume()
            consumer?.resume(returning: Batch(chunks: [], end: .failed(CancellationError())))
        }
    }

    extension ResponseBridge.State {
        fileprivate mutating func takeBatch() -> ResponseBridge.Batch {
            let batch = ResponseBridge.Batch(
                chunks: chunks, end: consumerGone ? (end ?? .failed(CancellationError())) : end)
            chunks = []
            buffered = 0
            return batch
        }

        fileprivate mutating func takeBatchForWaitingConsumer() -> (
            CheckedContinuation<ResponseBridge.Batch, Never>, ResponseBridge.Batch
        )? {
            guard let consumer else { return nil }
            self.consumer = nil
            return (consumer, takeBatch())
        }
    }
#endif
