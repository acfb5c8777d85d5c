// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import NIOCore
    import NIOHTTP1

    /// Answers a request the HTTP parser rejected, then lets the connection close: NIO's
    /// `HTTPServerProtocolErrorHandler`, in the same place of the pipeline, with one difference.
    /// A request line naming an HTTP major version other than 1 (`HTTP/2.0` or `HTTP/3.0` in an
    /// HTTP/1 request line) gets `505 HTTP Version Not Supported` (RFC 9110 §15.6.6), as nginx
    /// answers it, instead of `400`. Every other parse error gets `400`, a request line with
    /// something after its version included (the parser reports both as an invalid version; the
    /// bytes ``Witness`` last saw tell them apart).
    ///
    /// A response can only be sent when none has started: after a head, the close alone says it.
    /// Event-loop confined, like every channel handler.
    final class ProtocolErrorResponder: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart
        typealias OutboundIn = HTTPServerResponsePart
        typealias OutboundOut = HTTPServerResponsePart

        /// Keeps the last bytes read (a reference, not a copy), in front of the decoder.
        final class Witness: ChannelInboundHandler, RemovableChannelHandler {
            typealias InboundIn = ByteBuffer
            typealias InboundOut = ByteBuffer

            fileprivate var lastRead: ByteBuffer?

            func channelRead(context: ChannelHandlerContext, data: NIOAny) {
                lastRead = unwrapInboundIn(data)
                context.fireChannelRead(data)
            }
        }

        /// Sees what the decoder was given.
        let witness = Witness()

        /// Whether a response head went out without its end.
        private var responding = false

        /// The status for a parse error, given the bytes last read: 505 when the parser refused a
        /// version and those bytes hold a request line ending in `HTTP/<major>.<minor>` with a
        /// major version other than 1; 400 otherwise.
        static func status(for error: HTTPParserError, lastRead: ByteBuffer?) -> HTTPResponseStatus {
            guard error == .invalidVersion, let bytes = lastRead?.readableBytesView else { return .badRequest }
            return namesAnotherMajorVersion(bytes) ? .httpVersionNotSupported : .badRequest
        }

        /// Whether `bytes` hold ` HTTP/<digit>.<digit>` right before a line end, the digit before the
        /// dot not `1`.
        static func namesAnotherMajorVersion(_ bytes: ByteBufferView) -> Bool {
            let version = Array(" HTTP/".utf8)
            var index = bytes.startIndex
            while let start = bytes[index...].firstIndex(of: UInt8(ascii: " ")) {
                index = bytes.index(after: start)
                let end = start + version.count + 3
                guard end <= bytes.endIndex, bytes[start..<(start + version.count)].elementsEqual(version) else {
                    continue
                }
                let major = bytes[start + version.count]
                let dot = bytes[start + version.count + 1]
                let minor = bytes[start + version.count + 2]
                let lineEnds =
                    end == bytes.endIndex || bytes[end] == UInt8(ascii: "\r") || bytes[end] == UInt8(ascii: "\n")
                if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(major), major != UInt8(ascii: "1"),
                    dot == UInt8(ascii: "."), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(minor), lineEnds
                {
                    return true
                }
            }
            return false
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            guard let error = error as? HTTPParserError else {
                context.fireErrorCaught(error)
                return
            }
            // The decoder closes the connection once this returns: answer now, without waiting.
            if !responding {
                let head = HTTPResponseHead(
                    version: .http1_1, status: Self.status(for: error, lastRead: witness.lastRead),
                    headers: HTTPHeaders([("Connection", "close"), ("Content-Length", "0")]))
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
            context.fireErrorCaught(error)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            switch unwrapOutboundIn(data) {
            case .head(let head) where head.status.code < 200: break  // 100 Continue: the response is to come
            case .head: responding = true
            case .body: break
            case .end: responding = false
            }
            context.write(data, promise: promise)
        }
    }
#endif
