// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import Foundation
    import SchemeKit

    /// Reads a request body `GInputStream` on the main context for a handler that consumes it off
    /// it, as a bounded buffer: at most ``capacity`` bytes are read ahead of the consumer, and the
    /// next GLib read is only issued once the consumer has taken enough (a slow handler pauses the
    /// upload instead of growing memory).
    ///
    /// - A body past ``limit`` bytes fails the stream with `EngineError` with code `bodyTooLarge`
    ///   (naming the adapter's `maximumRequestBodySize`), and nothing more is read.
    /// - ``stop()`` (the task ended or was stopped, or the consumer's task was cancelled) cancels the
    ///   GLib read in flight, drops what is buffered and ends the stream with `CancellationError`;
    ///   nothing more is read.
    ///
    /// `@unchecked Sendable`: `stream` is only used on the main context (``executor``); the rest is
    /// immutable, thread-safe (`GCancellable`) or behind `state`.
    final class RequestBodyReader: @unchecked Sendable {
        /// The size of one GLib read: 64 KiB.
        static let chunkSize = 64 << 10

        private struct State {
            var chunks: [Data] = []
            var buffered = 0
            /// Bytes read from the stream so far.
            var total = 0
            /// A GLib read is in flight (or queued on the main context).
            var reading = false
            /// The end of the body: `nil` while it goes on; success at its end, or the error.
            var end: Result<Void, any Error>?
            /// The consumer waiting for a chunk.
            var waiter: CheckedContinuation<Data?, any Error>?
        }

        /// The most bytes read ahead of the consumer before reading pauses.
        let capacity: Int
        /// The most bytes the body may have.
        let limit: Int
        private let executor: GLibExecutor
        /// Main context only.
        private let stream: UnsafeMutablePointer<GInputStream>
        private let cancellable: UnsafeMutablePointer<GCancellable>
        private let state = Locked(State())

        /// Takes over the caller's reference to `stream`; call ``start()`` on the main context.
        init(
            _ stream: UnsafeMutablePointer<GInputStream>, executor: GLibExecutor, limit: Int,
            capacity: Int = 4 * RequestBodyReader.chunkSize
        ) {
            self.stream = stream
            self.executor = executor
            self.limit = limit
            self.capacity = max(Self.chunkSize, capacity)
            cancellable = g_cancellable_new()
        }

        deinit {
            // No read is in flight (each holds a reference): let go of the stream on the main context.
            let stream = UInt(bitPattern: self.stream)
            let cancellable = UInt(bitPattern: self.cancellable)
            executor.execute {
                g_object_unref(UnsafeMutableRawPointer(bitPattern: stream))
                g_object_unref(UnsafeMutableRawPointer(bitPattern: cancellable))
            }
        }

        /// The body, for a ``SchemeKit/SchemeRequestBody``: each `next()` takes a buffered chunk or
        /// waits for the read in flight. Cancelling the consumer's task stops the reader.
        var body: AsyncThrowingStream<Data, any Error> {
            AsyncThrowingStream(unfolding: { try await self.next() })
        }

        /// Bytes read from the stream so far.
        var bytesRead: Int { state.withLock { $0.total } }

        /// Whether reading is paused for the consumer: the body goes on, no read is in flight, and
        /// the buffer has no room for another chunk (an observation for tests).
        var isWaitingForRoom: Bool {
            state.withLock { $0.end == nil && !$0.reading && $0.buffered + Self.chunkSize > capacity }
        }

        /// Whether the consumer waits in `next()` for a chunk (an observation for tests).
        var isConsumerWaiting: Bool { state.withLock { $0.waiter != nil } }

        /// Whether the reader is done with the stream: the body ended (or was stopped) and no read
        /// is in flight, so nothing reads the stream again (an observation for tests).
        var isFinished: Bool { state.withLock { $0.end != nil && !$0.reading } }

        /// Starts reading ahead. Main context.
        func start() {
            let go = state.withLock { state -> Bool in
                guard !state.reading, state.end == nil else { return false }
                state.reading = true
                return true
            }
            if go { read() }
        }

        /// Stops reading: cancels the read in flight, drops the buffer and ends the body with
        /// `CancellationError`. Any thread; idempotent; does nothing once the body ended.
        func stop() {
            let waiter = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
                guard state.end == nil else { return nil }
                state.end = .failure(CancellationError())
                state.chunks = []
                state.buffered = 0
                defer { state.waiter = nil }
                return state.waiter
            }
            g_cancellable_cancel(cancellable)
            waiter?.resume(throwing: CancellationError())
        }

        /// The next chunk, `nil` at the end of the body.
        private func next() async throws -> Data? {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let (result, readMore) = state.withLock {
                        state -> (Result<Data?, any Error>?, Bool) in
                        if !state.chunks.isEmpty {
                            let chunk = state.chunks.removeFirst()
                            state.buffered -= chunk.count
                            return (.success(chunk), Self.shouldRead(&state, capacity: capacity))
                        }
                        switch state.end {
                        case .success: return (.success(nil), false)
                        case .failure(let error): return (.failure(error), false)
                        case nil:
                            state.waiter = continuation
                            return (nil, Self.shouldRead(&state, capacity: capacity))
                        }
                    }
                    if readMore { executor.execute { self.read() } }
                    if let result { continuation.resume(with: result) }
                }
            } onCancel: {
                stop()
            }
        }

        /// Whether to issue a read now (and marks one in flight): the body goes on, none is in
        /// flight, and the buffer has room for a chunk.
        private static func shouldRead(_ state: inout State, capacity: Int) -> Bool {
            guard state.end == nil, !state.reading, state.buffered + chunkSize <= capacity else { return false }
            state.reading = true
            return true
        }

        /// Issues one GLib read. Main context; `reading` is set.
        private func read() {
            if state.withLock({ $0.end != nil }) {
                state.withLock { $0.reading = false }
                return
            }
            g_input_stream_read_bytes_async(
                stream, gsize(Self.chunkSize), G_PRIORITY_DEFAULT, cancellable,
                { source, result, data in
                    let reader = Unmanaged<RequestBodyReader>.fromOpaque(data!).takeRetainedValue()
                    var error: UnsafeMutablePointer<GError>?
                    let bytes = g_input_stream_read_bytes_finish(
                        UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: GInputStream.self), result, &error)
                    if let error {
                        reader.delivered(.failure(EngineError.loadFailed(consumeError(error))))
                        return
                    }
                    var size: gsize = 0
                    let pointer = g_bytes_get_data(bytes, &size)
                    let chunk = size == 0 || pointer == nil ? nil : Data(bytes: pointer!, count: Int(size))
                    g_bytes_unref(bytes)
                    reader.delivered(.success(chunk))
                }, Unmanaged.passRetained(self).toOpaque())
        }

        /// A read completed with a chunk, the end of the body (`nil`) or an error. Main context.
        private func delivered(_ outcome: Result<Data?, any Error>) {
            var tooLarge = false
            let (waiter, result, readMore) = state.withLock {
                state -> (CheckedContinuation<Data?, any Error>?, Result<Data?, any Error>?, Bool) in
                state.reading = false
                guard state.end == nil else { return (nil, nil, false) }  // stopped meanwhile
                switch outcome {
                case .failure(let error):
                    state.end = .failure(error)
                case .success(nil):
                    state.end = .success(())
                case .success(let chunk?):
                    state.total += chunk.count
                    if state.total > limit {
                        tooLarge = true
                        state.end = .failure(EngineError.requestBodyTooLarge(limit: limit))
                        state.chunks = []
                        state.buffered = 0
                    } else if state.waiter != nil {
                        defer { state.waiter = nil }
                        return (state.waiter, .success(chunk), Self.shouldRead(&state, capacity: capacity))
                    } else {
                        state.chunks.append(chunk)
                        state.buffered += chunk.count
                        return (nil, nil, Self.shouldRead(&state, capacity: capacity))
                    }
                }
                // The body ended: a waiter gets the end (buffered chunks come first, and a waiter
                // only waits when there are none).
                defer { state.waiter = nil }
                return (state.waiter, state.end!.map { _ in nil as Data? }, false)
            }
            if tooLarge { g_cancellable_cancel(cancellable) }
            if let waiter, let result { waiter.resume(with: result) }
            if readMore { read() }
        }
    }
#endif
