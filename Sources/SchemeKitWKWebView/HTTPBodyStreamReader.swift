#if SCHEMEKIT_WEBKIT_STANDIN
    import WebKitStandIn
#elseif canImport(WebKit)
    import WebKit
#endif

#if SCHEMEKIT_WEBKIT_STANDIN || canImport(WebKit)
    import Foundation
    import SchemeKit
    import Synchronization

    /// Reads a request's `httpBodyStream` (WebKit gives a `POST` body this way, never as `httpBody`:
    /// cordova-ios#1074) as the handler asks: each chunk the handler takes is one 64 KiB blocking
    /// `read` on a serial queue of the reader's own, never on the main thread or the cooperative
    /// pool, and nothing is read ahead of the handler — a slow handler pauses the upload.
    ///
    /// - Past ``limit`` bytes the read throws `EngineError` with code `bodyTooLarge`, and nothing
    ///   more is read.
    /// - ``stop()`` (the task ended or was stopped) closes the stream after the read in flight, if
    ///   any; later reads end the body with `CancellationError`.
    ///
    /// **Assumption**: the stream WebKit hands over may be read off the main thread, one read at a
    /// time (it is a plain `NSInputStream` over the form data).
    ///
    /// `@unchecked Sendable`: `stream` (an `InputStream`, not `Sendable`) is only touched on
    /// `queue`; the rest is immutable or inside `state`.
    final class HTTPBodyStreamReader: @unchecked Sendable {
        /// The size of one read: 64 KiB.
        static let chunkSize = 64 << 10

        private struct State {
            var total = 0
            var opened = false
            var closed = false
        }

        /// The most bytes the body may have.
        let limit: Int
        private let stream: InputStream
        private let queue = DispatchQueue(label: "SchemeKitWKWebView.HTTPBodyStreamReader")
        private let state = Locked(State())

        /// A reader of `stream`, which it opens on its first read and closes at its end or ``stop()``.
        init(_ stream: InputStream, limit: Int) {
            self.stream = stream
            self.limit = limit
        }

        /// The body, read on demand; it can be read once.
        var body: SchemeRequestBody {
            .stream(AsyncThrowingStream(unfolding: { [self] in try await next() }))
        }

        /// The next chunk, `nil` at the end.
        private func next() async throws -> Data? {
            try await withCheckedThrowingContinuation { continuation in
                queue.async { continuation.resume(with: Result { try self.read() }) }
            }
        }

        /// One read. On `queue`.
        private func read() throws -> Data? {
            let open = state.withLock { state -> Bool? in
                if state.closed { return nil }
                defer { state.opened = true }
                return state.opened
            }
            guard let wasOpen = open else { throw CancellationError() }
            if !wasOpen { stream.open() }
            var chunk = Data(count: Self.chunkSize)
            let count = chunk.withUnsafeMutableBytes { buffer in
                stream.read(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), maxLength: Self.chunkSize)
            }
            if count < 0 {
                close()
                throw stream.streamError ?? EngineError(.invalidRequest, "the request body stream failed")
            }
            if count == 0 {
                close()
                return nil
            }
            let total = state.withLock { state in
                state.total += count
                return state.total
            }
            if total > limit {
                close()
                throw EngineError(
                    .bodyTooLarge,
                    "request body larger than \(limit) bytes (WKSchemeAdapterOptions.maximumRequestBodySize)")
            }
            chunk.count = count
            return chunk
        }

        /// Closes the stream. On `queue`.
        private func close() {
            let wasOpen = state.withLock { state in
                defer { state.closed = true }
                return state.opened && !state.closed
            }
            if wasOpen { stream.close() }
        }

        /// Stops reading: the stream is closed after the read in flight. Any thread.
        func stop() {
            queue.async { self.close() }
        }
    }
#endif
