public import Foundation

/// The body of a ``SchemeRequest``: nothing, bytes in memory, or a stream of chunks.
///
/// Most scheme requests are GET or HEAD and carry ``empty``. Engines that deliver POST bodies
/// hand them over as ``bytes(_:)`` or, for large uploads, ``stream(_:)``. A handler takes the
/// whole body with ``collect(upTo:)``, or reads it chunk by chunk with `for try await` (the body is
/// an `AsyncSequence` of `Data`).
public struct SchemeRequestBody: Sendable {
    enum Storage: Sendable {
        case empty
        case bytes(Data)
        case stream(AsyncThrowingStream<Data, any Error>)
    }

    let storage: Storage

    /// No body.
    public static let empty = SchemeRequestBody(storage: .empty)

    /// A body held in memory.
    public static func bytes(_ data: Data) -> SchemeRequestBody { SchemeRequestBody(storage: .bytes(data)) }

    /// A body delivered as a stream of chunks; it can be read once.
    public static func stream(_ stream: AsyncThrowingStream<Data, any Error>) -> SchemeRequestBody {
        SchemeRequestBody(storage: .stream(stream))
    }

    /// Whether the body is known to be empty.
    public var isEmpty: Bool {
        if case .empty = storage { return true }
        if case .bytes(let data) = storage { return data.isEmpty }
        return false
    }

    /// Collects the whole body.
    ///
    /// - Parameter limit: The most bytes to accept. Default: 16 MiB.
    /// - Throws: ``SchemeRequestBodyTooLarge`` when the body exceeds `limit`; the stream's error.
    public func collect(upTo limit: Int = 16 << 20) async throws -> Data {
        switch storage {
        case .empty:
            return Data()
        case .bytes(let data):
            guard data.count <= limit else { throw SchemeRequestBodyTooLarge(limit: limit) }
            return data
        case .stream(let stream):
            var result = Data()
            for try await chunk in stream {
                guard result.count + chunk.count <= limit else { throw SchemeRequestBodyTooLarge(limit: limit) }
                result.append(chunk)
            }
            return result
        }
    }
}

/// Thrown by ``SchemeRequestBody/collect(upTo:)`` when a body is larger than allowed.
public struct SchemeRequestBodyTooLarge: Error, Sendable, CustomStringConvertible {
    /// The limit that was exceeded, in bytes.
    public let limit: Int

    /// `request body larger than 16777216 bytes`.
    public var description: String { "request body larger than \(limit) bytes" }
}
