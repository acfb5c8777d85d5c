import Foundation

/// Memory for response bodies, supplied by an engine so that the bytes a handler reads (from a
/// file, from a socket) reach the engine without a copy on the way.
///
/// A handler that reads a body into memory asks its writer for the memory with
/// ``SchemeResponseWriter/makeBody(count:fill:)``. The guarded writer forwards to the engine
/// sink's ``SchemeTaskSink/bodyAllocator``, or falls back to ``MallocBodyAllocator``. The
/// ``SchemeBody`` that comes back may be kept, sliced or dropped by the handler. An engine wraps
/// its own memory in a ``SchemeBodyBuffer`` of its own type, recognises it by that type when the
/// body returns through `receive(_:)` (``SchemeBody/engineBuffer(as:)``) and
/// passes it on as is — `schemeserve` gives SwiftNIO the buffer the file was read into — and
/// copies anything else.
///
/// ## Implementation requirements
/// - `makeBody` runs on the handler's thread (or on a read queue): it must be thread-safe and
///   must not block for long.
/// - `fill` runs exactly once, synchronously, before `makeBody` returns.
public protocol SchemeBodyAllocator: Sendable {
    /// Returns the bytes `fill` writes into a new buffer of `count` bytes.
    ///
    /// - Parameters:
    ///   - count: The capacity of the buffer. Must be positive.
    ///   - fill: Writes into the buffer and returns how many bytes it wrote (`0...count`).
    /// - Returns: The written bytes; empty when `fill` wrote none.
    /// - Throws: What `fill` throws; the buffer is released.
    func makeBody<Failure: Error>(
        count: Int, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) -> SchemeBody
}

/// The default body memory: one `malloc` per body, handed to `Data` without a copy (and without
/// the zero-fill that `Data(count:)` would do), as an ordinary ``SchemeBody``.
public struct MallocBodyAllocator: SchemeBodyAllocator {
    /// Creates the allocator.
    public init() {}

    /// Allocates `count` bytes with `malloc`, lets `fill` write them and wraps them in `Data`.
    public func makeBody<Failure: Error>(
        count: Int, fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) -> SchemeBody {
        precondition(count > 0, "a body buffer needs a positive count")
        guard let memory = malloc(count) else { fatalError("out of memory allocating \(count) bytes") }
        let written: Int
        do {
            written = try fill(UnsafeMutableRawBufferPointer(start: memory, count: count))
        } catch {
            free(memory)
            throw error
        }
        precondition((0...count).contains(written), "fill wrote \(written) bytes into a \(count)-byte buffer")
        guard written > 0 else {
            free(memory)
            return .empty
        }
        return SchemeBody(Data(bytesNoCopy: memory, count: written, deallocator: .free))
    }
}
