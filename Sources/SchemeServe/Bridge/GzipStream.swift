// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import CSchemeKitZlib
    import Foundation
    import NIOCore

    /// A streaming gzip encoder (RFC 1952) over system zlib: one `z_stream` per response.
    ///
    /// zlib directly rather than through compress-nio: the package store needs zlib without SwiftNIO
    /// anyway (bounded raw inflate of zip entries), and `Benchmarks/Peers/GzipPeers` measured this as
    /// fast as compress-nio on large bodies and faster on small ones, with byte-identical output.
    ///
    /// Memory is bounded: zlib's state (about 270 KiB at memory level 8) and a 64 KiB output
    /// buffer, whatever the body's length. Not thread-safe: one writer at a time, as a response's
    /// body arrives.
    final class GzipStream {
        /// zlib's fastest level: what nginx's `gzip_comp_level` defaults to. A response's stream is
        /// compressed once per response, so speed wins.
        static let fastest: Int32 = Z_BEST_SPEED
        /// zlib's default level (6): smaller output at a cost worth paying once per file identity.
        static let zlibDefault: Int32 = Z_DEFAULT_COMPRESSION
        /// The most compressed bytes one buffer of ``compress(_:finish:)`` holds.
        static let outputChunk = 64 << 10

        private let stream: UnsafeMutablePointer<z_stream>
        /// Where deflate writes while streaming; allocated on the first ``compress(_:finish:)``.
        private var scratch: UnsafeMutableRawBufferPointer?
        private let allocator = ByteBufferAllocator()

        /// Starts a stream at `level` (zlib's 1 fastest … 9 smallest, or ``zlibDefault``).
        /// Default: ``fastest``.
        ///
        /// - Throws: ``GzipError`` when zlib cannot start a stream (out of memory).
        init(level: Int32 = GzipStream.fastest) throws {
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            // windowBits 15 + 16: raw deflate inside a gzip header and trailer; memory level 8 and the
            // default strategy are zlib's defaults.
            let status = deflateInit2_(
                stream, level, Z_DEFLATED, MAX_WBITS + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size))
            guard status == Z_OK else {
                stream.deinitialize(count: 1)
                stream.deallocate()
                throw GzipError(status: status)
            }
        }

        deinit {
            deflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
            scratch?.deallocate()
        }

        /// Compresses `input`; returns what is ready to send (possibly nothing), in buffers of at
        /// most ``outputChunk`` bytes. With `finish`, also the end of the stream (its trailer): call
        /// it once, last.
        ///
        /// - Throws: ``GzipError`` when zlib fails, or `input` is 4 GiB or more; the stream is then
        ///   unusable.
        func compress(_ input: Data, finish: Bool = false) throws -> [ByteBuffer] {
            guard input.count <= UInt32.max else { throw GzipError(status: Z_BUF_ERROR) }
            let scratch = self.scratch ?? .allocate(byteCount: Self.outputChunk, alignment: 16)
            self.scratch = scratch
            let out = scratch.baseAddress!.assumingMemoryBound(to: Bytef.self)
            var output: [ByteBuffer] = []
            try input.withUnsafeBytes { bytes in
                stream.pointee.next_in = UnsafeMutablePointer(
                    mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
                stream.pointee.avail_in = UInt32(bytes.count)
                defer {
                    stream.pointee.next_in = nil
                    stream.pointee.avail_in = 0
                }
                // zlib's own loop (zlib.net/zlib_how.html): deflate until it leaves room in the
                // output, which means it took all the input; finishing, until the stream's end.
                while true {
                    stream.pointee.next_out = out
                    stream.pointee.avail_out = UInt32(scratch.count)
                    let status = deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
                    // Z_BUF_ERROR: no progress was possible (nothing in, nothing pending); not fatal.
                    guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                        throw GzipError(status: status)
                    }
                    let produced = scratch.count - Int(stream.pointee.avail_out)
                    if produced > 0 {
                        output.append(allocator.buffer(bytes: UnsafeRawBufferPointer(rebasing: scratch[..<produced])))
                    }
                    if status == Z_STREAM_END { return }
                    if stream.pointee.avail_out > 0 {
                        if finish { throw GzipError(status: status) }
                        return
                    }
                }
            }
            return output
        }

        /// Compresses a whole body at once: one `deflate` call into one buffer sized by
        /// `deflateBound`.
        ///
        /// - Throws: ``GzipError`` when zlib fails, or `input` is 4 GiB or more.
        static func compressWhole(_ input: Data, level: Int32 = GzipStream.fastest) throws -> ByteBuffer {
            try GzipStream(level: level).finish(whole: input)
        }

        private func finish(whole input: Data) throws -> ByteBuffer {
            guard input.count <= UInt32.max else { throw GzipError(status: Z_BUF_ERROR) }
            // The gzip header and trailer included; enough for a single Z_FINISH (zlib.h).
            let bound = Int(deflateBound(stream, UInt(input.count)))
            var result = allocator.buffer(capacity: bound)
            var status = Z_OK
            input.withUnsafeBytes { bytes in
                stream.pointee.next_in = UnsafeMutablePointer(
                    mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
                stream.pointee.avail_in = UInt32(bytes.count)
                result.writeWithUnsafeMutableBytes(minimumWritableBytes: bound) { out in
                    stream.pointee.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.pointee.avail_out = UInt32(bound)
                    status = deflate(stream, Z_FINISH)
                    return bound - Int(stream.pointee.avail_out)
                }
                stream.pointee.next_in = nil
                stream.pointee.avail_in = 0
            }
            guard status == Z_STREAM_END else { throw GzipError(status: status) }
            return result
        }
    }

    /// zlib refused: its status code (`Z_MEM_ERROR`, `Z_STREAM_ERROR`, …). Never reaches a client:
    /// the response goes out uncompressed, as a 500, or cut short, depending on how far it got.
    struct GzipError: Error, Equatable {
        /// zlib's return code.
        var status: Int32
    }
#endif
