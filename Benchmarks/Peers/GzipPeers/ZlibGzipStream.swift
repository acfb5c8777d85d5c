import CGzipPeerZlib
import Foundation
import NIOCore

/// Direct zlib, as `Sources/SchemeServe/Bridge/GzipStream.swift` does it (a copy: that type is
/// internal to SchemeServe). Keep the two alike when either changes.
final class ZlibGzipStream {
    static let outputChunk = 64 << 10

    private let stream: UnsafeMutablePointer<z_stream>
    private var scratch: UnsafeMutableRawBufferPointer?
    private let allocator = ByteBufferAllocator()

    init(level: Int32 = Z_BEST_SPEED) throws {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = deflateInit2_(
            stream, level, Z_DEFLATED, MAX_WBITS + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw GzipPeerError(status: status)
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        scratch?.deallocate()
    }

    func compress(_ input: Data, finish: Bool = false) throws -> [ByteBuffer] {
        guard input.count <= UInt32.max else { throw GzipPeerError(status: Z_BUF_ERROR) }
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
            while true {
                stream.pointee.next_out = out
                stream.pointee.avail_out = UInt32(scratch.count)
                let status = deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    throw GzipPeerError(status: status)
                }
                let produced = scratch.count - Int(stream.pointee.avail_out)
                if produced > 0 {
                    output.append(allocator.buffer(bytes: UnsafeRawBufferPointer(rebasing: scratch[..<produced])))
                }
                if status == Z_STREAM_END { return }
                if stream.pointee.avail_out > 0 {
                    if finish { throw GzipPeerError(status: status) }
                    return
                }
            }
        }
        return output
    }

    static func compressWhole(_ input: Data, level: Int32 = Z_BEST_SPEED) throws -> ByteBuffer {
        try ZlibGzipStream(level: level).finish(whole: input)
    }

    private func finish(whole input: Data) throws -> ByteBuffer {
        guard input.count <= UInt32.max else { throw GzipPeerError(status: Z_BUF_ERROR) }
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
        guard status == Z_STREAM_END else { throw GzipPeerError(status: status) }
        return result
    }
}

struct GzipPeerError: Error {
    var status: Int32
}

/// Inflates a gzip member (windowBits 15 + 16), to check both peers' output.
func gunzip(_ data: [UInt8]) -> [UInt8]? {
    var stream = z_stream()
    guard inflateInit2_(&stream, MAX_WBITS + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
        return nil
    }
    defer { inflateEnd(&stream) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    return data.withUnsafeBufferPointer { input -> [UInt8]? in
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = UInt32(input.count)
        while true {
            let status = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                let status = inflate(&stream, Z_NO_FLUSH)
                result.append(contentsOf: out[..<(out.count - Int(stream.avail_out))])
                return status
            }
            if status == Z_STREAM_END { return stream.avail_in == 0 ? result : nil }
            if status != Z_OK { return nil }
        }
    }
}
