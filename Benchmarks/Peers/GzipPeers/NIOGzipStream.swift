import CompressNIO
import Foundation
import NIOCore

/// compress-nio, as schemeserve used it up to d1c6e84 (`GzipStream` in
/// `Sources/SchemeServe/Bridge/ResponseTransforms.swift`): a 64 KiB window, output handed out
/// whenever it fills.
final class NIOGzipStream {
    private let compressor: any NIOCompressor
    private let allocator = ByteBufferAllocator()

    init(level: ZlibConfiguration.CompressionLevel = .fastestCompression) throws {
        compressor = CompressionAlgorithm.gzip(configuration: .init(compressionLevel: level)).compressor
        compressor.window = allocator.buffer(capacity: 64 << 10)
        try compressor.startStream()
    }

    func compress(_ input: Data, finish: Bool = false) throws -> [ByteBuffer] {
        var buffer = allocator.buffer(capacity: input.count)
        buffer.writeBytes(input)
        var output: [ByteBuffer] = []
        try buffer.compressStream(with: compressor, flush: finish ? .finish : .no) { output.append($0) }
        if finish { try compressor.finishStream() }
        return output
    }

    static func compressWhole(
        _ input: Data, level: ZlibConfiguration.CompressionLevel = .fastestCompression
    ) throws -> ByteBuffer {
        let stream = try NIOGzipStream(level: level)
        var result = ByteBufferAllocator().buffer(capacity: input.count / 2 + 64)
        for var part in try stream.compress(input, finish: true) { result.writeBuffer(&part) }
        return result
    }
}
