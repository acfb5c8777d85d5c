// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import CompressNIO
    import Foundation
    import HTTPTypes
    import NIOCore
    import SchemeKit

    /// What the HTTP side does to a handler's response on its way out: security headers, CORS,
    /// live-reload injection, gzip. Decided once per response from the request and the head.
    struct ResponseTransforms: Sendable {
        /// Insert the live-reload script before `</body>`.
        var injectScript: Data?
        /// Gzip the body.
        var gzip = false

        /// Removes fields whose value carries CR, LF, NUL or form feed: they never reach the client.
        static func sanitise(_ fields: inout HTTPFields) {
            var hasUnsafeValue = false
            for field in fields
            where field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x0C || $0 == 0 }) {
                hasUnsafeValue = true
                break
            }
            guard hasUnsafeValue else { return }
            var clean = HTTPFields()
            for field in fields
            where !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x0C || $0 == 0 }) {
                clean.append(field)
            }
            fields = clean
        }

        /// Inserts `script` before the last `</body>` (case-insensitive), or appends it.
        static func inject(_ script: Data, into html: Data) -> Data {
            let marker = Array("</body>".utf8)
            let bytes = [UInt8](html)
            var index = bytes.count - marker.count
            while index >= 0 {
                var match = true
                for offset in 0..<marker.count where bytes[index + offset] | 0x20 != marker[offset] | 0x20 {
                    match = false
                    break
                }
                if match { break }
                index -= 1
            }
            var result = Data(capacity: html.count + script.count)
            if index >= 0 {
                result.append(contentsOf: bytes[..<index])
                result.append(script)
                result.append(contentsOf: bytes[index...])
            } else {
                result.append(html)
                result.append(script)
            }
            return result
        }
    }

    /// A streaming gzip encoder over compress-nio's zlib wrapper.
    final class GzipStream {
        private let compressor: any NIOCompressor
        private let allocator = ByteBufferAllocator()

        /// Starts a stream at `level` (zlib's 1 fastest … 9 smallest). Default: 1, what nginx's
        /// `gzip_comp_level` defaults to: a stream is compressed once per response.
        init(level: ZlibConfiguration.CompressionLevel = .fastestCompression) throws {
            compressor = CompressionAlgorithm.gzip(configuration: .init(compressionLevel: level)).compressor
            compressor.window = allocator.buffer(capacity: 64 << 10)
            try compressor.startStream()
        }

        /// Compresses `input`; returns what is ready to send (possibly nothing).
        func compress(_ input: Data, finish: Bool = false) throws -> [ByteBuffer] {
            var buffer = allocator.buffer(capacity: input.count)
            buffer.writeBytes(input)
            var output: [ByteBuffer] = []
            try buffer.compressStream(with: compressor, flush: finish ? .finish : .no) { output.append($0) }
            if finish { try compressor.finishStream() }
            return output
        }

        /// Compresses a whole body at once.
        static func compressWhole(
            _ input: Data, level: ZlibConfiguration.CompressionLevel = .fastestCompression
        ) throws -> ByteBuffer {
            let stream = try GzipStream(level: level)
            var result = ByteBufferAllocator().buffer(capacity: input.count / 2 + 64)
            for var part in try stream.compress(input, finish: true) { result.writeBuffer(&part) }
            return result
        }
    }

    /// gzip for the file handler's on-the-fly encodings (`LocalFileHandler.Configuration.encoders`):
    /// a cached file is compressed once per file identity, so it is worth zlib's default level (6),
    /// smaller than the fastest at a cost paid once.
    struct GzipContentEncoder: SchemeContentEncoder {
        let contentCoding = "gzip"

        func encode(_ body: Data) throws -> Data {
            Data(try GzipStream.compressWhole(body, level: .defaultCompressionLevel).readableBytesView)
        }
    }
#endif
