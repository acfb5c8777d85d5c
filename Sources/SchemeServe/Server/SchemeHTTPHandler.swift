// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import HTTPTypes
    import NIOCore
    import NIOHTTP1
    import NIOHTTPTypesHTTP1
    import NIOWebSocket
    import SchemeKit

    /// The engine adapter of one HTTP/1.1 connection: each request in, a SchemeKit answer out.
    ///
    /// `http://127.0.0.1:8080/a/b.js?x` becomes `app://localhost/a/b.js?x` (scheme and host from the
    /// configuration), method, header fields and content (at most ``maximumRequestBodySize``, read
    /// whole first, as the network handler sends it) kept, after ``RequestGuard``'s checks. Then:
    /// - **Immediately**, on the event loop, when the registry can answer without suspending
    ///   (``SchemeRegistry/immediateResponse(for:)``: a small file in the body cache, a 304, a 404,
    ///   a refusal): the head and body are written from here, with no Swift task, no continuation
    ///   and no thread hop.
    /// - **Streamed** otherwise: a ``SchemeTask`` runs the handler chain in a Swift task and a
    ///   ``ResponseBridge`` hands its output back to this loop, which sends it while the channel is
    ///   writable (file regions with `sendfile`, bytes in the buffers the file was read into).
    ///
    /// A handler that fails before its head gets a 500 (502 for upstream errors); after the head,
    /// the connection is closed. A client that goes away stops the task. NIO's
    /// `HTTPServerPipelineHandler` in front of this handler keeps pipelined requests in order (one
    /// at a time reaches here) and handles a graceful shutdown's quiescing. Event-loop confined.
    final class SchemeHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        /// What every connection of one server shares.
        struct Shared: Sendable {
            let registry: SchemeRegistry
            let scheme: String
            let appHost: String
            let requestGuard: RequestGuard
            let planner: ResponsePlanner
            let accessLog: AccessLog?
            /// The encoded immediate answers, one cache per event loop.
            let responseCaches = PerEventLoop { _ in EncodedResponseCache() }
            /// How a response with more to send lets the loop's other connections go first.
            let yields = PerEventLoop { LoopYield(eventLoop: $0) }
        }

        /// A response being streamed from a task.
        private final class Streaming {
            let task: SchemeTask
            let bridge: ResponseBridge
            let request: HTTPRequest
            let rules: ResponsePlanner.Rules
            let target: String
            let version: HTTPVersion
            var keepAlive: Bool
            let started: ContinuousClock.Instant?
            var status = 0
            var sent = 0
            /// What the access log says of the head's refusal reason, if any.
            var refusal: String?
            /// The body's declared length (`Content-Length`; 0 for HEAD), once the head is written.
            var declaredLength: Int?
            /// What was taken from the bridge and not sent yet, in order: the rest of a file region
            /// larger than one turn's budget, the chunks after it, and the end.
            var unsent: ArraySlice<ResponseBridge.Chunk> = []
            var unsentEnd: ResponseBridge.End?
            /// Whether the response has had its turn at the front of the loop's line, and what it
            /// sent in its current turn (``SchemeHTTPHandler/turnLength``).
            var hasTurn = false
            var sentInTurn = 0

            init(
                task: SchemeTask, bridge: ResponseBridge, request: HTTPRequest, rules: ResponsePlanner.Rules,
                target: String, version: HTTPVersion, keepAlive: Bool, started: ContinuousClock.Instant?
            ) {
                self.task = task
                self.bridge = bridge
                self.request = request
                self.rules = rules
                self.target = target
                self.version = version
                self.keepAlive = keepAlive
                self.started = started
            }
        }

        private let shared: Shared
        private var context: ChannelHandlerContext?
        private var requestHead: HTTPRequestHead?
        /// The content of the request being read, while it fits ``maximumRequestBodySize``.
        private var requestBody: ByteBuffer?
        /// The request being read sent more than ``maximumRequestBodySize``.
        private var requestBodyTooLarge = false
        private var streaming: Streaming?
        /// This connection's event loop's encoded answers (and its `Date` value).
        private let encoded: EncodedResponseCache
        /// The connection's handler in front of the decoder, which keeps repeatable answers.
        private let repeats: RepeatedRequestHandler?
        /// This connection's event loop's turn-taking (``drain()``).
        private let yield: LoopYield

        /// - Parameters:
        ///   - encoded: The event loop's cache (`shared.responseCaches.value(for:)`).
        ///   - yield: The event loop's ``LoopYield`` (`shared.yields.value(for:)`).
        ///   - repeats: The connection's ``RepeatedRequestHandler``, if it has one.
        init(shared: Shared, encoded: EncodedResponseCache, yield: LoopYield, repeats: RepeatedRequestHandler?) {
            self.shared = shared
            self.encoded = encoded
            self.yield = yield
            self.repeats = repeats
        }

        func handlerAdded(context: ChannelHandlerContext) {
            self.context = context
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            abortStreaming()
            self.context = nil
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                requestHead = head
                requestBody = nil
                requestBodyTooLarge = false  // content past the limit is found as it comes
                if Self.expectsContinue(head) {
                    // RFC 9110 §10.1.1: the client holds its content back until it hears from us.
                    // Content that cannot fit gets its final answer now (and the connection ends,
                    // since the client may never send it); any other is asked for.
                    let declared = head.headers["content-length"].first.flatMap { Int($0) } ?? 0
                    guard declared <= Self.maximumRequestBodySize else {
                        requestHead = nil
                        return refuseLargeBody(head, context: context)
                    }
                    context.writeAndFlush(
                        wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))),
                        promise: nil)
                }
            case .body(var chunk):
                guard requestHead != nil, !requestBodyTooLarge else { return }
                guard (requestBody?.readableBytes ?? 0) + chunk.readableBytes <= Self.maximumRequestBodySize else {
                    requestBodyTooLarge = true  // read to its end and dropped, then refused
                    requestBody = nil
                    return
                }
                if requestBody == nil {
                    requestBody = chunk
                } else {
                    requestBody!.writeBuffer(&chunk)
                }
            case .end:
                guard let head = requestHead else { return }
                requestHead = nil
                let body = requestBody
                requestBody = nil
                if requestBodyTooLarge { return refuseLargeBody(head, context: context) }
                respond(to: head, body: body, context: context)
            }
        }

        func channelWritabilityChanged(context: ChannelHandlerContext) {
            if context.channel.isWritable { drain() }
            context.fireChannelWritabilityChanged()
        }

        func channelInactive(context: ChannelHandlerContext) {
            abortStreaming()
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            // A refused WebSocket upgrade (live reload from another origin) is reported here, and
            // the request then comes through as plain HTTP: answer it.
            if error is NIOWebSocketUpgradeError || error is HTTPServerUpgradeErrors { return }
            abortStreaming()
            context.close(promise: nil)
        }

        // MARK: One request

        /// The most request content passed on to the handlers (a POST to `--fallback`), as the
        /// network handler collects it: 16 MiB. More is answered 413 and the connection closed.
        static let maximumRequestBodySize = 16 << 20

        /// 413 for content over ``maximumRequestBodySize``, closing the connection.
        private func refuseLargeBody(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
            let message = "Content Too Large: at most \(Self.maximumRequestBodySize >> 20) MiB\n"
            let (plan, body) = shared.planner.plain(.contentTooLarge, message, for: nil)
            writeWhole(
                plan, body, head: head, keepAlive: false, started: shared.accessLog == nil ? nil : .now,
                handler: "guard")
        }

        private func respond(to head: HTTPRequestHead, body: ByteBuffer?, context: ChannelHandlerContext) {
            let started = shared.accessLog == nil ? nil : ContinuousClock.now
            var head = head
            if head.version == .http1_0, !head.headers.contains(name: "Host"), head.uri.utf8.first == UInt8(ascii: "/")
            {
                // RFC 9112 §3.2 asks `Host` only of HTTP/1.1: an HTTP/1.0 request without one is
                // addressed to this server (as nginx and Go's server take it). No browser sends
                // one, so it cannot be a DNS-rebinding load.
                let port = context.channel.localAddress?.port.map { ":\($0)" } ?? ""
                head.headers.add(name: "Host", value: "localhost\(port)")
            }
            let keepAlive = head.isKeepAlive
            let planner = shared.planner
            let rules = planner.rules(forTarget: head.uri)
            if let rejection = shared.requestGuard.checkHost(values: head.headers["Host"], target: head.uri) {
                let (plan, body) = planner.plain(rejection.status, rejection.message, for: nil, rules: rules)
                let keep = keepAlive && rejection.status != .badRequest
                return writeWhole(plan, body, head: head, keepAlive: keep, started: started, handler: "guard")
            }
            guard let request = try? Self.request(from: head) else {
                let (plan, body) = planner.plain(.badRequest, "Bad Request\n", for: nil, rules: rules)
                return writeWhole(plan, body, head: head, keepAlive: false, started: started, handler: "guard")
            }
            if let rejection = shared.requestGuard.check(request) {
                let (plan, body) = planner.plain(rejection.status, rejection.message, for: request, rules: rules)
                return writeWhole(plan, body, head: head, keepAlive: keepAlive, started: started, handler: "guard")
            }
            if let preflight = planner.preflight(for: request, rules: rules) {
                return writeWhole(
                    preflight, Data(), head: head, keepAlive: keepAlive, started: started, handler: "cors")
            }
            // Parsed once, from the parts HTTP already split: no `URL` is built on this path.
            guard
                let schemeRequest = try? SchemeRequest(
                    scheme: shared.scheme, authority: shared.appHost, path: request.path ?? "/",
                    method: request.method, headerFields: request.headerFields,
                    body: body.map { .bytes(Data($0.readableBytesView)) } ?? .empty)
            else {
                let (plan, body) = planner.plain(.badRequest, "Bad Request\n", for: request, rules: rules)
                return writeWhole(plan, body, head: head, keepAlive: keepAlive, started: started, handler: "guard")
            }

            if let answer = shared.registry.immediateResponse(for: schemeRequest) {
                return writeImmediate(
                    answer, request: request, rules: rules, head: head, keepAlive: keepAlive, started: started,
                    context: context)
            }

            let eventLoop = context.eventLoop
            let handler = NIOLoopBound(self, eventLoop: eventLoop)
            let bridge = ResponseBridge(
                planner: { response in planner.plan(response, for: request, rules: rules) },
                wake: { eventLoop.execute { handler.value.drain() } })
            let task = shared.registry.task(for: schemeRequest, sink: bridge)
            streaming = Streaming(
                task: task, bridge: bridge, request: request, rules: rules, target: head.uri, version: head.version,
                keepAlive: keepAlive, started: started)
            task.start()
        }

        /// Whether an HTTP/1.1 request with content asks for `100 Continue` before sending it
        /// (`Expect: 100-continue`; HTTP/1.0 clients' expectations are ignored, as RFC 9110 says).
        static func expectsContinue(_ head: HTTPRequestHead) -> Bool {
            guard head.version.major == 1, head.version.minor >= 1,
                head.headers["expect"].contains(where: { $0.lowercased() == "100-continue" })
            else { return false }
            let hasContent =
                head.headers["transfer-encoding"].isEmpty == false
                || head.headers["content-length"].contains { Int($0).map { $0 > 0 } ?? false }
            return hasContent
        }

        /// The request head in swift-http-types' terms. An origin-form target (`/a/b?x`, what
        /// browsers send) is the path as it is; anything else takes swift-nio-extras' conversion,
        /// which parses it as a URL.
        static func request(from head: HTTPRequestHead) throws -> HTTPRequest {
            guard head.uri.utf8.first == UInt8(ascii: "/") else {
                return try HTTPRequest(head, secure: false, splitCookie: false)
            }
            return HTTPRequest(
                method: try HTTPRequest.Method(head.method), scheme: "http", authority: head.headers["Host"].first,
                path: head.uri, headerFields: HTTPFields(head.headers, splitCookie: false))
        }

        /// Writes an answer the registry gave at once: the plan's header fields, the body gzipped or
        /// with the live-reload script when the plan says so. An answer the file handler keeps
        /// (a ``SchemeCollectedResponse/representationID``) goes out as this loop encoded it last.
        private func writeImmediate(
            _ answer: SchemeCollectedResponse, request: HTTPRequest, rules: ResponsePlanner.Rules,
            head: HTTPRequestHead, keepAlive: Bool, started: ContinuousClock.Instant?, context: ChannelHandlerContext
        ) {
            let handler = answer.answeredBy ?? "-"
            var key: EncodedResponseCache.Key?
            if let representation = answer.representationID, let rulesKey = rules.key {
                key = EncodedResponseCache.Key(
                    representation: representation, rules: rulesKey, major: head.version.major,
                    minor: head.version.minor, keepAlive: keepAlive,
                    origin: shared.planner.corsOrigins.isEmpty ? nil : request.headerFields[.origin])
            }
            let refusal = answer.head.refusalReason.map { String(describing: $0) }
            if let key, let entry = encoded.entry(key) {
                return writeWhole(
                    entry.head, entry.body, request: head, keepAlive: keepAlive, started: started, handler: handler,
                    refusal: refusal, keep: answer.validator)
            }
            var plan = shared.planner.plan(answer.head, for: request, rules: rules)
            var body = answer.body
            if request.method == .head {
                body = Data()
            } else {
                if let script = plan.transforms.injectScript {
                    body = ResponseTransforms.inject(script, into: body)
                }
                if plan.transforms.gzip {
                    guard let compressed = try? GzipStream.compressWhole(body) else {
                        let (failure, message) = shared.planner.plain(
                            .internalServerError, "Internal Server Error\n", for: request, rules: rules)
                        return writeWhole(
                            failure, message, head: head, keepAlive: keepAlive, started: started, handler: handler,
                            refusal: refusal)
                    }
                    body = Data(compressed.readableBytesView)
                    plan.fields[.contentLength] = String(body.count)
                }
            }
            let responseHead = makeHead(plan, version: head.version, keepAlive: keepAlive)
            let buffer = body.isEmpty ? nil : context.channel.allocator.buffer(bytes: body)
            let entry = EncodedResponseCache.Entry(head: responseHead, body: buffer, date: encoded.dates.now())
            if let key, plan.transforms.injectScript == nil, !plan.transforms.gzip {
                encoded.store(entry, for: key)
            }
            writeWhole(
                responseHead, buffer, request: head, keepAlive: keepAlive, started: started, handler: handler,
                refusal: refusal, keep: answer.validator)
        }

        /// Writes a whole response (head, body, end) and flushes it.
        private func writeWhole(
            _ plan: ResponsePlan, _ body: Data, head: HTTPRequestHead, keepAlive: Bool,
            started: ContinuousClock.Instant?, handler: String, refusal: String? = nil
        ) {
            guard let context else { return }
            writeWhole(
                makeHead(plan, version: head.version, keepAlive: keepAlive),
                body.isEmpty ? nil : context.channel.allocator.buffer(bytes: body), request: head, keepAlive: keepAlive,
                started: started, handler: handler, refusal: refusal)
        }

        /// Writes a whole response and flushes it. With `keep` (the answer depends on nothing but
        /// the request and that file), the response as encoded is kept for a repeat of the request
        /// (``RepeatedRequestHandler``), when the request came whole in one read. `refusal` is what
        /// the access log says of a refusal's reason.
        private func writeWhole(
            _ responseHead: HTTPResponseHead, _ body: ByteBuffer?, request head: HTTPRequestHead, keepAlive: Bool,
            started: ContinuousClock.Instant?, handler: String, refusal: String? = nil,
            keep validator: FileIdentityCheck? = nil
        ) {
            guard let context else { return }
            let allocator = context.channel.allocator
            let method = HTTPRequest.Method(head.method.rawValue)
            let capture = validator.flatMap { validator in
                method != nil && repeats?.beginCapture(allocator: allocator) == true ? validator : nil
            }
            context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
            if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
            // A whole response is handed to the socket by this flush: its line is recorded now, with
            // no promise to wait on (the time is the time to the socket, as for a streamed one).
            writeEnd(keepAlive: keepAlive, context: context)
            guard let method else { return }
            let line = AccessLog.Line(
                method: method, target: head.uri, status: Int(responseHead.status.code),
                bytes: body?.readableBytes ?? 0, handler: handler, refusal: refusal)
            if let capture, let repeats {
                repeats.endCapture(validator: capture, closes: !keepAlive, log: line, allocator: allocator)
            }
            if let started { shared.accessLog?.record(line, started: started) }
        }

        private func makeHead(_ plan: ResponsePlan, version: HTTPVersion, keepAlive: Bool) -> HTTPResponseHead {
            var headers = HTTPHeaders(plan.fields)
            headers.add(name: "date", value: encoded.dates.now())
            if !keepAlive {
                headers.replaceOrAdd(name: "connection", value: "close")
            } else if version.major == 1, version.minor == 0 {
                headers.replaceOrAdd(name: "connection", value: "keep-alive")
            }
            let status = HTTPResponseStatus(statusCode: plan.status.code, reasonPhrase: plan.status.reasonPhrase)
            return HTTPResponseHead(version: version, status: status, headers: headers)
        }

        private func writeHead(
            _ plan: ResponsePlan, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext
        ) {
            context.write(
                wrapOutboundOut(.head(makeHead(plan, version: version, keepAlive: keepAlive))), promise: nil)
        }

        /// Writes the end of a response and flushes; once it has reached the socket, calls `written`
        /// and closes the connection when it is not kept alive.
        private func writeEnd(keepAlive: Bool, context: ChannelHandlerContext, written: (() -> Void)? = nil) {
            guard !keepAlive || written != nil else {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            let loopBound = context.loopBound
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                written?()
                if !keepAlive { loopBound.value.close(promise: nil) }
            }
        }

        // MARK: Streaming

        /// The most body bytes one ``drain()`` sends before the loop polls its sockets again (it
        /// goes on after that poll, ``LoopYield``). A file region larger than this goes out in
        /// pieces of this size, as nginx's `sendfile_max_chunk` (also 2 MiB) does. Measured with 8
        /// connections pulling 10 MiB and 2 asking for 1 KiB on one loop, the small requests' p99
        /// was 2.9–3.5 ms with 2 MiB pieces, 1.7–2.3 ms with 1 MiB, nginx's 7.9–9.0 ms; 1 MiB
        /// pieces cost the large downloads 2–3% (a poll per piece).
        static let drainBudget = 2 << 20

        /// How many bytes a response sends in one turn of the loop's line (``LoopYield``), a budget
        /// after each poll, before the next response in line gets the loop: files up to this size
        /// go out first come, first served, larger ones take turns.
        static let turnLength = 16 << 20

        /// Whether a ``drain()`` waits for the loop's next poll.
        private var drainQueued = false

        /// Sends what the bridge has while the channel is writable; called when the bridge wakes the
        /// loop and when the channel becomes writable again. One turn sends at most
        /// ``drainBudget`` bytes, then goes on after the loop's next poll (``LoopYield``): a producer
        /// that keeps the bridge full (a file read as fast as a fast socket takes it), or one large
        /// file region, must not keep the loop from its other connections. On loopback a 10 MiB
        /// `sendfile` is one call of several milliseconds; sent whole, the requests that arrived
        /// meanwhile waited behind it.
        private func drain() {
            guard let context, let streaming, !drainQueued else { return }
            var wrote = false
            var budget = Self.drainBudget
            while true {
                // The budget is checked first: a flush that empties the channel makes it writable
                // again and calls this at once, which must not start a new turn.
                guard budget > 0 else {
                    // A response keeps the loop for `turnLength` bytes once its turn came, then
                    // goes to the back of the line; its first piece (sent when it starts) gives it
                    // a place at the back.
                    streaming.sentInTurn += Self.drainBudget
                    let keepingTurn = streaming.hasTurn && streaming.sentInTurn < Self.turnLength
                    if !keepingTurn { streaming.sentInTurn = 0 }
                    drainQueued = true
                    yield.afterNextPoll(keepingTurn: keepingTurn) { [self] in
                        drainQueued = false
                        self.streaming?.hasTurn = true
                        drain()
                    }
                    context.flush()
                    return
                }
                guard context.channel.isWritable else { break }
                if streaming.unsent.isEmpty && streaming.unsentEnd == nil {
                    let batch = streaming.bridge.take()
                    if batch.isEmpty { break }
                    if let start = batch.start, !begin(streaming, start, context: context) { return }
                    streaming.unsent = batch.chunks[...]
                    streaming.unsentEnd = batch.end
                }
                wrote = true
                while budget > 0, let chunk = streaming.unsent.first {
                    if case .region(let region) = chunk, region.count > budget {
                        let (first, rest) = region.split(at: budget)
                        streaming.unsent[streaming.unsent.startIndex] = .region(rest)
                        budget -= send(.region(first), of: streaming, context: context, last: false)
                    } else {
                        streaming.unsent.removeFirst()
                        budget -= send(chunk, of: streaming, context: context, last: true)
                    }
                }
                if streaming.unsent.isEmpty, let end = streaming.unsentEnd {
                    streaming.unsentEnd = nil
                    complete(streaming, end, context: context)
                    return
                }
            }
            if wrote { context.flush() }
        }

        /// Writes the head of a streamed response; `false` when the task failed before its head
        /// (the error response is then written and the request is over).
        private func begin(_ streaming: Streaming, _ start: ResponseBridge.Start, context: ChannelHandlerContext)
            -> Bool
        {
            switch start {
            case .failed(let error):
                self.streaming = nil
                let network = streaming.task.respondingHandler == "network" || error is URLError
                let (plan, body) =
                    network
                    ? shared.planner.plain(
                        .badGateway, "Bad Gateway\n", for: streaming.request, rules: streaming.rules)
                    : shared.planner.plain(
                        .internalServerError, "Internal Server Error\n", for: streaming.request,
                        rules: streaming.rules)
                writeHead(plan, version: streaming.version, keepAlive: streaming.keepAlive, context: context)
                if !body.isEmpty {
                    context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
                }
                writeEnd(keepAlive: streaming.keepAlive, context: context) { [self] in
                    log(streaming, status: plan.status.code, bytes: body.count, aborted: false)
                }
                return false
            case .head(let response, let plan):
                // Without a length, an HTTP/1.0 body ends with the connection.
                if plan.fields[.contentLength] == nil, streaming.version.minor == 0 { streaming.keepAlive = false }
                streaming.status = plan.status.code
                streaming.refusal = response.refusalReason.map { String(describing: $0) }
                streaming.declaredLength =
                    streaming.request.method == .head ? 0 : plan.fields[.contentLength].flatMap(Int.init)
                writeHead(plan, version: streaming.version, keepAlive: streaming.keepAlive, context: context)
                return true
            }
        }

        /// Sends one chunk of a streamed body (its transforms were applied by the bridge); returns
        /// the bytes it put on the wire.
        private func send(
            _ chunk: ResponseBridge.Chunk, of streaming: Streaming, context: ChannelHandlerContext, last: Bool
        ) -> Int {
            guard streaming.request.method != .head else { return 0 }
            switch chunk {
            case .region(let region):
                writeRegion(region, uncorkWhenWritten: last, context: context)
                streaming.sent += region.count
                return region.count
            case .bytes(let buffer):
                context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
                streaming.sent += buffer.readableBytes
                return buffer.readableBytes
            }
        }

        /// A file region goes to the socket with `sendfile`. NIO's handle borrows the region's
        /// descriptor (it never closes it): the region keeps the file open until the write is done.
        ///
        /// The socket is corked while it goes out (Linux `TCP_CORK`, nginx's `tcp_nopush`): the head
        /// and the file leave in full segments, and uncorking when the region is written pushes the
        /// tail at once (after a region's last piece). Measured here, nginx's 10 MiB throughput falls
        /// by a quarter without it.
        private func writeRegion(
            _ region: SchemeFileRegion, uncorkWhenWritten: Bool, context: ChannelHandlerContext
        ) {
            let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: region.file.descriptor)
            let start = Int(region.offset)
            let fileRegion = FileRegion(fileHandle: handle, readerIndex: start, endIndex: start + region.count)
            let corked = Self.cork(context.channel, true)
            let written = context.eventLoop.makePromise(of: Void.self)
            let channel = context.channel
            written.futureResult.whenComplete { _ in
                _ = try? handle.takeDescriptorOwnership()
                withExtendedLifetime(region) {}
                if corked && uncorkWhenWritten { _ = Self.cork(channel, false) }
            }
            context.write(wrapOutboundOut(.body(.fileRegion(fileRegion))), promise: written)
        }

        /// Sets `TCP_CORK`; `false` where it cannot be set.
        private static func cork(_ channel: any Channel, _ on: Bool) -> Bool {
            #if os(Linux)
                let option = ChannelOptions.Types.SocketOption(level: .tcp, name: .init(rawValue: CInt(TCP_CORK)))
                guard let options = channel.syncOptions else { return false }
                return (try? options.setOption(option, value: on ? 1 : 0)) != nil
            #else
                return false
            #endif
        }

        private func complete(_ streaming: Streaming, _ end: ResponseBridge.End, context: ChannelHandlerContext) {
            self.streaming = nil
            switch end {
            case .finished:
                writeEnd(keepAlive: streaming.keepAlive, context: context) { [self] in
                    log(streaming, status: streaming.status, bytes: streaming.sent, aborted: false)
                }
            case .failed:
                // After the head there is no status left to say it with: close, so the client sees
                // a truncated body rather than a complete-looking one.
                context.flush()
                context.close(promise: nil)
                log(streaming, status: streaming.status, bytes: streaming.sent, aborted: true)
            }
        }

        /// How long a handler that has sent its whole declared body may take to finish once the
        /// client has gone, before its task is stopped.
        static let finishGrace = TimeAmount.seconds(5)

        /// The connection went away (or the handler was removed) mid-response: stop the task.
        ///
        /// Unless the client already has the whole response — its length was declared and every
        /// byte of it sent — and closed the connection before the handler said it finished (a
        /// fallback handler waits for the origin's end of stream): that is no abort. The handler
        /// ends on its own, so what wraps it (a `--record-har` recorder) sees a finished exchange;
        /// its task is stopped only if it has not ended within ``finishGrace``.
        private func abortStreaming() {
            guard let streaming else { return }
            self.streaming = nil
            if let declared = streaming.declaredLength, streaming.sent >= declared, let loop = context?.eventLoop {
                streaming.bridge.cancelConsumer()
                log(streaming, status: streaming.status, bytes: streaming.sent, aborted: false)
                let task = streaming.task
                loop.scheduleTask(in: Self.finishGrace) { task.stop() }
                return
            }
            streaming.task.stop()
            streaming.bridge.cancelConsumer()
            log(streaming, status: streaming.status, bytes: streaming.sent, aborted: true)
        }

        private func log(_ streaming: Streaming, status: Int, bytes: Int, aborted: Bool) {
            guard let started = streaming.started else { return }
            shared.accessLog?.record(
                method: streaming.request.method, target: streaming.target, status: status, bytes: bytes,
                started: started, handler: streaming.task.respondingHandler ?? "unknown", refusal: streaming.refusal,
                aborted: aborted)
        }
    }
#endif

#if Server
    extension SchemeFileRegion {
        /// The region's first `count` bytes, and the rest.
        fileprivate func split(at count: Int) -> (SchemeFileRegion, SchemeFileRegion) {
            (
                SchemeFileRegion(file, offset: offset, count: Int64(count)),
                SchemeFileRegion(file, offset: offset + Int64(count), count: Int64(self.count - count))
            )
        }
    }
#endif
