// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import NIOCore
    @testable import SchemeServe
    import Testing

    /// schemeserve's gzip (system zlib through `CSchemeKitZlib`) read back by `gzip -dc` and by
    /// Python's zlib: whole bodies at both levels schemeserve uses, streamed bodies in uneven writes
    /// (compressible and not), and a streamed response over HTTP.
    @Suite(.ownThread, .timeLimit(.minutes(2)))
    struct GzipStreamTests {
        /// JavaScript-like text, compressible but not trivially.
        static func text(_ count: Int) -> Data {
            var text = ""
            var line = 0
            while text.utf8.count < count {
                text += "  const item\(line % 97) = await fetch(`/api/\(line * 7919 % 10007)`).then(r => r.json());\n"
                line += 1
            }
            return Data(text.utf8.prefix(count))
        }

        static func bytes(_ buffers: [ByteBuffer]) -> Data { Data(buffers.flatMap { $0.readableBytesView }) }

        @Test(arguments: [0, 1, 1024, 300 << 10])
        func wholeBodiesInflateWithGzipAndPython(size: Int) throws {
            let input = Self.text(size)
            for level in [GzipStream.fastest, GzipStream.zlibDefault] {
                let gzip = Data(try GzipStream.compressWhole(input, level: level).readableBytesView)
                #expect(gzip.prefix(3) == Data([0x1F, 0x8B, 0x08]), "a gzip member, deflate")
                #expect(try Gunzip.withGzipTool(gzip) == input)
                #expect(try Gunzip.withPython(gzip) == input)
            }
        }

        @Test(arguments: [false, true])
        func streamedBodiesInflateWithGzipAndPython(incompressible: Bool) throws {
            var random = SystemRandomNumberGenerator()
            let input =
                incompressible
                ? Data((0..<((1 << 20) + 5)).map { _ in UInt8.random(in: 0...255, using: &random) })
                : Self.text(3 << 20)
            let stream = try GzipStream()
            var output: [ByteBuffer] = []
            let writes = [64 << 10, 1, 0, 100 << 10, 7, 200 << 10]
            var offset = 0
            var index = 0
            while offset < input.count {
                let count = min(writes[index % writes.count], input.count - offset)
                output += try stream.compress(input.subdata(in: offset..<offset + count))
                offset += count
                index += 1
            }
            output += try stream.compress(Data(), finish: true)
            #expect(output.allSatisfy { $0.readableBytes > 0 && $0.readableBytes <= GzipStream.outputChunk })
            let gzip = Self.bytes(output)
            #expect(try Gunzip.withGzipTool(gzip) == input)
            #expect(try Gunzip.withPython(gzip) == input)
            if !incompressible { #expect(gzip.count < input.count / 2) }
        }

        /// One write that finishes gives the bytes a whole-body compression gives.
        @Test func aSingleFinishingWriteEqualsTheWholeBody() throws {
            let input = Self.text(200 << 10)
            let streamed = Self.bytes(try GzipStream().compress(input, finish: true))
            #expect(streamed == Data(try GzipStream.compressWhole(input).readableBytesView))
        }

        /// A file larger than the body cache streams through the response's gzip stream (chunked).
        @Test func aStreamedResponseInflatesWithGzip() async throws {
            let body = Self.text(1 << 20)
            try await TestServer.with(site: { root in
                try body.write(to: root.appending(path: "big.js"))
            }) { server in
                let response = try await RawHTTP.fetch(
                    port: server.port, "/big.js", headers: ["Accept-Encoding": "gzip"])
                #expect(response.status == 200)
                #expect(response.header("Content-Encoding") == "gzip")
                #expect(response.header("Transfer-Encoding") == "chunked", "streamed, not whole")
                #expect(try Gunzip.withGzipTool(response.body) == body)
                #expect(try Gunzip.withPython(response.body) == body)
            }
        }
    }
#endif
