// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import NIOCore
    import SchemeKit

    /// A SwiftNIO `ByteBuffer` lent to handlers as body memory (``ResponseBridge`` is their
    /// allocator), recognised by its type when it comes back, so the bytes a file was read into go
    /// to the socket without a copy.
    struct ByteBufferBody: SchemeBodyBuffer {
        let buffer: ByteBuffer

        var count: Int { buffer.readableBytes }

        func withUnsafeBytes<Result, Failure: Error>(
            _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
        ) throws(Failure) -> Result {
            // `withUnsafeReadableBytes` rethrows untyped: carry the typed error through a `Result`.
            let result: Swift.Result<Result, Failure> = buffer.withUnsafeReadableBytes { raw in
                do throws(Failure) { return .success(try body(raw)) } catch { return .failure(error) }
            }
            return try result.get()
        }

        func slice(_ range: Range<Int>) -> ByteBufferBody {
            ByteBufferBody(buffer: buffer.getSlice(at: buffer.readerIndex + range.lowerBound, length: range.count)!)
        }
    }
#endif
