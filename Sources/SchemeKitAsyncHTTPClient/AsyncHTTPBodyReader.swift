// Built with the package trait `AsyncHTTPClient` (enabled by `Server`); without it the module is empty.
#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOFoundationCompat
    import SchemeKit

    /// One response body of ``AsyncHTTPSchemeClient``, read for its consumer: AsyncHTTPClient's body
    /// iterator, its chunks as `Data`, the exchange's overall deadline, and its errors as
    /// `SchemeHTTPClientError`.
    ///
    /// Back-pressure is AsyncHTTPClient's own: each ``next()`` asks for one chunk, and SwiftNIO reads
    /// the socket again only then. Releasing the reader (the body stream was dropped) releases the
    /// iterator, and AsyncHTTPClient then cancels the request.
    ///
    /// `@unchecked Sendable` because it holds the iterator, which is not `Sendable`: it is used by one
    /// call of ``next()`` at a time, since `AsyncThrowingStream(unfolding:)` calls its closure once per
    /// element for its single consumer (a `SchemeHTTPClientResponse.body` is iterated once).
    final class AsyncHTTPBodyReader: @unchecked Sendable {
        private var iterator: HTTPClientResponse.Body.AsyncIterator?
        private let deadline: ContinuousClock.Instant
        private let timeout: Duration
        /// Kept alive while the body is read: releasing it shuts its connection pool down.
        private let client: AsyncHTTPSchemeClient

        init(
            body: HTTPClientResponse.Body, deadline: ContinuousClock.Instant, timeout: Duration,
            client: AsyncHTTPSchemeClient
        ) {
            self.iterator = body.makeAsyncIterator()
            self.deadline = deadline
            self.timeout = timeout
            self.client = client
        }

        /// The next chunk, `nil` at the end.
        ///
        /// - Throws: `SchemeHTTPClientError`: a timeout when the exchange's deadline passes (then the
        ///   request is cancelled), cancelled when the reading task is, or the connection's failure.
        func next() async throws -> Data? {
            guard iterator != nil else { return nil }
            let deadline = self.deadline
            let timeout = self.timeout
            do {
                let buffer = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                    group.addTask { try await self.read() }
                    group.addTask {
                        try await Task.sleep(until: deadline, clock: .continuous)
                        throw SchemeHTTPClientError(.timeout, detail: "exchange not complete within \(timeout)")
                    }
                    // The first to finish wins; leaving the group cancels the other (a cancelled read
                    // cancels the request).
                    defer { group.cancelAll() }
                    return try await group.next() ?? nil
                }
                guard let buffer else {
                    iterator = nil
                    return nil
                }
                return Data(buffer: buffer)
            } catch {
                iterator = nil
                if Task.isCancelled {
                    throw SchemeHTTPClientError(.cancelled, detail: "the reading task was cancelled")
                }
                throw AsyncHTTPSchemeClient.map(error)
            }
        }

        /// One chunk from AsyncHTTPClient.
        private func read() async throws -> ByteBuffer? {
            try await iterator?.next()
        }
    }
#endif
