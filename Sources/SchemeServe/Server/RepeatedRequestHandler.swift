// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import NIOCore
    import SchemeKit

    /// Answers a request that repeats an earlier one byte for byte, before any HTTP decoding: the
    /// response kept for it (``EncodedResponseCache/Answer``) goes to the socket as it went out
    /// last, after one `lstat` of the file it was made from.
    ///
    /// A browser repeats its requests exactly (the same target, the same header fields in the same
    /// order, revalidations included), and so do load tools. Such a request costs here a scan for
    /// the blank line that ends its head, a hash, a comparison, an `lstat` and one write: no HTTP
    /// parser, no request or response head value, no encoder. Everything else goes on to NIO's HTTP
    /// pipeline unchanged.
    ///
    /// It sits next to the socket, in front of the HTTP decoder, and answers only when the decoder
    /// holds nothing and every request it decoded has been answered (``ConnectionTimeoutHandler``
    /// counts them right behind the decoder): a direct answer can never overtake another response
    /// or split a request. The decoder holds nothing when every byte given to it so far ended at a
    /// head's blank line and no request is open, since bytes after a complete request that do not
    /// end in a blank line are an unfinished head. Not while quiescing, and never again on a
    /// connection that asked to switch protocols.
    ///
    /// Answers are kept by ``SchemeHTTPHandler``: when a request arrived whole in one read while
    /// the connection was idle (``currentRequest``) and its answer is repeatable, the handler asks
    /// this one to ``beginCapture()`` what the encoder writes and ``endCapture(_:)`` stores it.
    /// Event-loop confined.
    final class RepeatedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        typealias OutboundIn = IOData
        typealias OutboundOut = IOData

        private let cache: EncodedResponseCache
        private let accessLog: AccessLog?
        private let requests: ConnectionTimeoutHandler
        /// Whether every byte handed to the decoder so far ended at a request head's blank line.
        private var decoderAtBoundary = true
        /// A graceful shutdown asked connections to finish: NIO's pipeline handler closes them.
        private var quiescing = false
        /// A kept answer closed the connection: what the client sends after it is not read.
        private var closing = false
        /// The request head being decoded right now, when it came whole in one read to an idle
        /// connection: the request ``SchemeHTTPHandler`` answers during that read.
        private(set) var currentRequest: ByteBuffer?
        /// What the encoder has written since ``beginCapture()``; `nil` when not capturing or when
        /// something other than bytes (a file region) was written.
        private var captured: ByteBuffer?
        private var capturing = false

        init(cache: EncodedResponseCache, accessLog: AccessLog?, requests: ConnectionTimeoutHandler) {
            self.cache = cache
            self.accessLog = accessLog
            self.requests = requests
        }

        /// Whether a request now may be answered here.
        private var idle: Bool {
            decoderAtBoundary && !quiescing && !closing && requests.inFlight == 0 && !requests.sawUpgrade
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !closing else { return }
            var buffer = unwrapInboundIn(data)
            var answered = false
            while idle, let length = Self.headLength(in: buffer),
                let head = buffer.getSlice(at: buffer.readerIndex, length: length),
                let answer = cache.answer(forRequest: head)
            {
                let started = accessLog == nil ? nil : ContinuousClock.now
                context.write(wrapOutboundOut(.byteBuffer(answer.response)), promise: nil)
                buffer.moveReaderIndex(forwardBy: length)
                answered = true
                if let started { accessLog?.record(answer.log, started: started) }
                if answer.closes { closing = true }
            }
            if answered {
                context.flush()
                if closing {
                    // Held back by `CloseAfterLastWrite` until the response is on the socket.
                    context.close(promise: nil)
                    return
                }
                requests.responded()
                guard buffer.readableBytes > 0 else { return }
            }
            forward(buffer, context: context)
        }

        /// Hands `buffer` to the HTTP decoder. A buffer that is exactly one request head, reaching
        /// an idle connection, is ``currentRequest`` while the decoder runs.
        private func forward(_ buffer: ByteBuffer, context: ChannelHandlerContext) {
            let whole = idle && Self.headLength(in: buffer) == buffer.readableBytes
            decoderAtBoundary = Self.endsWithBlankLine(buffer)
            if whole { currentRequest = buffer }
            context.fireChannelRead(wrapInboundOut(buffer))
            currentRequest = nil
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if event is ChannelShouldQuiesceEvent { quiescing = true }
            context.fireUserInboundEventTriggered(event)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if capturing, captured != nil {
                switch unwrapOutboundIn(data) {
                case .byteBuffer(var bytes): captured!.writeBuffer(&bytes)
                case .fileRegion: captured = nil
                }
            }
            context.write(data, promise: promise)
        }

        // MARK: Keeping answers

        /// Starts keeping what is written for ``currentRequest``; `false` (nothing kept) when there
        /// is none.
        func beginCapture(allocator: ByteBufferAllocator) -> Bool {
            guard currentRequest != nil, !capturing else { return false }
            capturing = true
            captured = allocator.buffer(capacity: 512)
            return true
        }

        /// Stops capturing and keeps what was written as the answer to ``currentRequest``, valid
        /// while `validator` holds. Nothing is kept when a file region was written or the response
        /// has no `date` field to keep current.
        func endCapture(
            validator: FileIdentityCheck, closes: Bool, log: AccessLog.Line,
            allocator: ByteBufferAllocator
        ) {
            defer {
                capturing = false
                captured = nil
            }
            guard let response = captured, let request = currentRequest,
                let dateIndex = Self.dateValueIndex(in: response),
                let date = response.getString(at: response.readerIndex + dateIndex, length: 29)
            else { return }
            // Its own storage: the read buffer it came in is the socket's, and much larger.
            var ownRequest = allocator.buffer(capacity: request.readableBytes)
            ownRequest.writeImmutableBuffer(request)
            cache.store(
                EncodedResponseCache.Answer(
                    request: ownRequest, response: response, dateIndex: dateIndex, date: date,
                    validator: validator, closes: closes, log: log))
        }

        // MARK: Scanning

        /// The length of the request head at the start of `buffer`, through the blank line that ends
        /// it (`CR LF CR LF`); `nil` when the buffer holds no blank line.
        static func headLength(in buffer: ByteBuffer) -> Int? {
            buffer.withUnsafeReadableBytes { bytes in
                guard bytes.count >= 4 else { return nil }
                var index = 3
                while index < bytes.count {
                    if bytes[index] == 0x0A, bytes[index - 1] == 0x0D, bytes[index - 2] == 0x0A,
                        bytes[index - 3] == 0x0D
                    {
                        return index + 1
                    }
                    index += 1
                }
                return nil
            }
        }

        /// Whether `buffer` ends with `CR LF CR LF`.
        static func endsWithBlankLine(_ buffer: ByteBuffer) -> Bool {
            let count = buffer.readableBytes
            guard count >= 4, let tail = buffer.getInteger(at: buffer.readerIndex + count - 4, as: UInt32.self)
            else { return false }
            return tail == 0x0D0A_0D0A
        }

        /// Where the value of the response head's `date` field starts (the server writes it in
        /// lower case, as `date: `, and the encoder keeps it so), relative to the reader index.
        static func dateValueIndex(in response: ByteBuffer) -> Int? {
            let marker = Array("\r\ndate: ".utf8)
            return response.withUnsafeReadableBytes { bytes in
                guard let end = headLength(in: response), end <= bytes.count, end >= marker.count else { return nil }
                var index = 0
                while index + marker.count <= end {
                    if bytes[index] == 0x0D, zip(marker.indices, marker).allSatisfy({ bytes[index + $0] == $1 }) {
                        return index + marker.count
                    }
                    index += 1
                }
                return nil
            }
        }
    }
#endif
