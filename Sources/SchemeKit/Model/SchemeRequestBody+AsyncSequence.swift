public import Foundation

/// A request body read chunk by chunk, for handlers that take uploads larger than they want in
/// memory:
///
/// ```swift
/// for try await chunk in request.body {
///     try file.write(contentsOf: chunk)
/// }
/// ```
///
/// ``SchemeRequestBody/empty`` yields nothing, a body in memory yields itself as one chunk, and a
/// streamed body yields the engine's chunks as they arrive. A streamed body can be read once: a
/// second iteration, or ``SchemeRequestBody/collect(upTo:)`` after one, finds what the first left.
extension SchemeRequestBody: AsyncSequence {
    /// One chunk of the body, never empty.
    public typealias Element = Data
    /// The engine's error for a streamed body that failed mid-way.
    public typealias Failure = any Error

    /// Reads the body's chunks in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private enum Source {
            case bytes(Data?)
            case stream(AsyncThrowingStream<Data, any Error>.AsyncIterator)
        }

        private var source: Source

        fileprivate init(_ storage: SchemeRequestBody.Storage) {
            switch storage {
            case .empty: source = .bytes(nil)
            case .bytes(let data): source = .bytes(data.isEmpty ? nil : data)
            case .stream(let stream): source = .stream(stream.makeAsyncIterator())
            }
        }

        /// The next chunk, or `nil` at the end of the body.
        ///
        /// - Throws: The engine's error when a streamed body failed.
        public mutating func next() async throws -> Data? {
            switch source {
            case .bytes(let data):
                source = .bytes(nil)
                return data
            case .stream(var iterator):
                while let chunk = try await iterator.next() {
                    if !chunk.isEmpty {
                        source = .stream(iterator)
                        return chunk
                    }
                }
                source = .bytes(nil)
                return nil
            }
        }
    }

    /// An iterator over the body's chunks.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(storage)
    }
}
