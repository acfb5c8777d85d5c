public import Foundation

/// A chunk of a response body, on its way from a handler to the engine.
///
/// A body is ordinary bytes (`Data`), memory the engine lent the handler through its
/// ``SchemeBodyAllocator`` (a ``SchemeBodyBuffer`` of the engine's own type), or a region of an
/// open file (``SchemeFileRegion``) for an engine that sends files itself. Handlers treat all
/// three alike (``count``, ``data``, slicing); an engine recognises its own buffers *by type* with
/// ``engineBuffer(as:)`` and a file region with ``fileRegion``, passes them on without a copy, and
/// copies anything else. Only engines that declare ``SchemeTaskSink/acceptsFileRegions`` get file
/// regions from SchemeKit's handlers.
///
/// ```swift
/// // In an engine sink:
/// func receive(_ body: SchemeBody) {
///     if let buffer = body.engineBuffer(as: MyEngineBuffer.self) {
///         send(buffer)                          // the memory the file was read into
///     } else {
///         body.withUnsafeBytes { send(copying: $0) }
///     }
/// }
/// ```
public struct SchemeBody: Sendable {
    enum Storage: Sendable {
        case bytes(Data)
        case buffer(any SchemeBodyBuffer)
        case region(SchemeFileRegion)
    }

    let storage: Storage

    /// Ordinary bytes.
    public init(_ data: Data) {
        storage = .bytes(data)
    }

    /// Bytes copied from a sequence (`SchemeBody(Array("hi".utf8))`).
    public init(_ bytes: some Sequence<UInt8>) {
        storage = .bytes(Data(bytes))
    }

    /// Memory an engine lent: the engine recognises it again with ``engineBuffer(as:)``.
    public init(engineBuffer: some SchemeBodyBuffer) {
        storage = .buffer(engineBuffer)
    }

    /// A region of an open file: the engine sends it with ``fileRegion``, or reads it.
    public init(fileRegion: SchemeFileRegion) {
        storage = .region(fileRegion)
    }

    /// An empty body.
    public static let empty = SchemeBody(Data())

    /// The number of bytes.
    public var count: Int {
        switch storage {
        case .bytes(let data): data.count
        case .buffer(let buffer): buffer.count
        case .region(let region): region.count
        }
    }

    /// Whether the body has no bytes.
    public var isEmpty: Bool { count == 0 }

    /// The bytes as `Data`: free for ordinary bytes, a copy for an engine's buffer, a read for a
    /// file region (short when the file was truncated since, empty when it cannot be read: use
    /// ``SchemeFileRegion/read()`` to see the error).
    public var data: Data {
        switch storage {
        case .bytes(let data): data
        case .buffer(let buffer): buffer.withUnsafeBytes { Data($0) }
        case .region(let region): (try? region.read()) ?? Data()
        }
    }

    /// The file region behind this body, if it is one.
    public var fileRegion: SchemeFileRegion? {
        guard case .region(let region) = storage else { return nil }
        return region
    }

    /// The engine buffer behind this body, if it is one of type `type`; `nil` for ordinary bytes
    /// and for another engine's buffers.
    public func engineBuffer<Buffer: SchemeBodyBuffer>(as type: Buffer.Type) -> Buffer? {
        guard case .buffer(let buffer) = storage else { return nil }
        return buffer as? Buffer
    }

    /// Calls `body` with the bytes, without copying them (a file region is read first, as
    /// ``data`` reads it).
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        switch storage {
        case .bytes(let data):
            // `Data.withUnsafeBytes` rethrows untyped: carry the typed error through a `Result`.
            let result: Swift.Result<Result, Failure> = data.withUnsafeBytes { raw in
                do throws(Failure) { return .success(try body(raw)) } catch { return .failure(error) }
            }
            return try result.get()
        case .buffer(let buffer):
            return try buffer.withUnsafeBytes(body)
        case .region:
            return try SchemeBody(data).withUnsafeBytes(body)
        }
    }

    /// The bytes in `range` (offsets from 0), as the same kind of body: an engine buffer or a file
    /// region stays one.
    ///
    /// - Precondition: `range` lies within `0..<count`.
    package func slice(_ range: Range<Int>) -> SchemeBody {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "slice \(range) outside 0..<\(count)")
        switch storage {
        case .bytes(let data):
            let start = data.startIndex
            return SchemeBody(data[(start + range.lowerBound)..<(start + range.upperBound)])
        case .buffer(let buffer):
            return SchemeBody(storage: .buffer(buffer.slice(range)))
        case .region(let region):
            return SchemeBody(storage: .region(region.slice(range)))
        }
    }

    /// The first `count` bytes (all of them when the body is shorter).
    package func prefix(_ count: Int) -> SchemeBody {
        slice(0..<Swift.min(Swift.max(count, 0), self.count))
    }

    init(storage: Storage) {
        self.storage = storage
    }
}

extension SchemeBody: Equatable {
    /// Bodies are equal when their bytes are, whatever memory holds them.
    public static func == (lhs: SchemeBody, rhs: SchemeBody) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in left.elementsEqual(right) } }
    }
}

extension SchemeBody: ExpressibleByStringLiteral {
    /// The UTF-8 bytes of a string literal, for tests and fixed responses.
    public init(stringLiteral value: String) {
        self.init(Data(value.utf8))
    }
}

/// Memory an engine lends handlers for response bodies (see ``SchemeBodyAllocator``).
///
/// The engine's own type: a NIO `ByteBuffer` slice in `schemeserve`, a GLib buffer in an engine
/// adapter. It comes back to the engine inside a ``SchemeBody``, recognised with
/// ``SchemeBody/engineBuffer(as:)``.
///
/// ## Implementation requirements
/// The bytes must not change while the buffer exists; `slice` returns a buffer of the same type
/// over a sub-range, sharing the memory.
public protocol SchemeBodyBuffer: Sendable {
    /// The number of readable bytes.
    var count: Int { get }

    /// Calls `body` with the readable bytes.
    func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result

    /// The bytes in `range` (offsets from 0 into the readable bytes), sharing the memory.
    func slice(_ range: Range<Int>) -> Self
}
