#if Chromium || Firefox || WebKitGTK
    import Foundation
    import HTTPTypes
    import NIOCore
    import NIOHTTP1
    import SchemeKit

    /// The HTTP/1.1 side of one loopback origin connection (after TLS): each request of the page
    /// becomes a registry task of the adapter whose origin the `Host` names, answered as the
    /// handler writes it (``LoopbackExchange``).
    ///
    /// Requests come one at a time (`HTTPServerPipelineHandler` holds the next until the response
    /// before it ended). For a `Host` no adapter serves the connection closes (the page sees a
    /// network error, as with no server there); content over the route's limit gets `413` and the
    /// connection closes. When the browser closes the connection
    /// with a request open, that request is stopped (`SchemeRequestRecord/StopReason/canceledByPage`).
    final class LoopbackOriginHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let server: LoopbackOriginServer
        private var head: HTTPRequestHead?
        private var body: ByteBuffer?
        private var tooLarge = false
        private var limit = Int.max
        private var current: LoopbackExchange?

        init(server: LoopbackOriginServer) {
            self.server = server
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body = nil
                tooLarge = false
                limit = server.route(forHost: Self.host(of: head))?.route.maximumRequestBodySize ?? 0
            case .body(var chunk):
                guard head != nil, !tooLarge else { return }
                guard (body?.readableBytes ?? 0) + chunk.readableBytes <= limit else {
                    tooLarge = true
                    body = nil
                    return
                }
                if body == nil { body = chunk } else { body!.writeBuffer(&chunk) }
            case .end:
                guard let head else { return }
                self.head = nil
                let content = body
                body = nil
                serve(head, content: content, context: context)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            current?.connectionClosed()
            current = nil
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            current?.connectionClosed()
            current = nil
            context.close(promise: nil)
        }

        /// The `Host` field's name without its port, lowercased.
        static func host(of head: HTTPRequestHead) -> String {
            var host = Substring(head.headers.first(name: "host") ?? "")
            if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") { host = host[..<colon] }
            return host.lowercased()
        }

        private func serve(_ head: HTTPRequestHead, content: ByteBuffer?, context: ChannelHandlerContext) {
            let hostField = head.headers.first(name: "host") ?? ""
            let url = "https://\(hostField.lowercased())\(head.uri.hasPrefix("/") ? head.uri : "/" + head.uri)"
            guard let (route, adapter) = server.route(forHost: Self.host(of: head)),
                let registryURL = route.origins.registryURL(for: url)
            else {
                // No adapter serves the host (any more): the page sees what it would see with no
                // server there at all, a network error.
                return context.close(promise: nil)
            }
            var record = SchemeRequestRecord(
                url: url, registryURL: registryURL, method: head.method.rawValue,
                resourceType: head.headers.first(name: "sec-fetch-dest"))
            route.client.began()
            if tooLarge {
                let error = EngineError(
                    .bodyTooLarge,
                    "a request body over the adapter's limit of \(route.maximumRequestBodySize) bytes (maximumRequestBodySize)"
                )
                record.fail(error)
                record.status = 413
                route.client.ended(record)
                return plain(.payloadTooLarge, "Content Too Large\n", head, context, close: true)
            }
            var fields = HTTPFields()
            for header in head.headers {
                guard let name = HTTPField.Name(header.name) else { continue }
                fields.append(HTTPField(name: name, value: header.value))
            }
            let request: SchemeRequest
            do {
                guard let method = HTTPRequest.Method(head.method.rawValue) else {
                    throw EngineError(.malformedMessage, "a request method SchemeKit cannot read: \(head.method)")
                }
                request = try SchemeRequest(
                    registryURL, method: method, headerFields: fields,
                    body: content.map { .bytes(Data($0.readableBytesView)) } ?? .empty)
            } catch {
                record.fail(error)
                record.status = 400
                route.client.ended(record)
                return plain(.badRequest, "Bad Request\n", head, context, close: true)
            }
            let server = self.server
            let exchange = LoopbackExchange(
                channel: context.channel, route: route, adapter: adapter, record: record,
                isHead: head.method == .HEAD, keepAlive: head.isKeepAlive,
                onEnd: { server.ended($0) })
            // The handler is asked once: an answer known now is written here, on the loop, with no
            // task; one written over time runs in a task that writes through the exchange.
            switch route.registry.answer(for: request, sink: exchange) {
            case .response(let response):
                respond(response, to: head, record: record, route: route, context: context)
            case .task(let task):
                current = exchange
                server.began(exchange)
                exchange.start(task)
            }
        }

        /// Writes a response the handler knew at once, and publishes its record.
        private func respond(
            _ response: SchemeCollectedResponse, to head: HTTPRequestHead, record: SchemeRequestRecord,
            route: LoopbackOriginRoute, context: ChannelHandlerContext
        ) {
            var record = record
            record.status = response.head.status.code
            record.handler = response.answeredBy
            let hasBody = head.method != .HEAD && !response.body.isEmpty
            record.bytes = hasBody ? response.body.count : 0
            context.write(
                wrapOutboundOut(
                    .head(
                        LoopbackExchange.head(
                            response.head, registryURL: record.registryURL, url: record.url,
                            keepAlive: head.isKeepAlive))), promise: nil)
            if hasBody {
                context.write(
                    wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))),
                    promise: nil)
            }
            let client = route.client
            let channel = context.channel
            let keepAlive = head.isKeepAlive
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { [record] result in
                var record = record
                if case .failure = result {
                    record.outcome = .stopped(reason: .canceledByPage)
                } else if !keepAlive {
                    channel.close(promise: nil)
                }
                record.duration = .now - record.started
                client.ended(record)
            }
        }

        /// A short plain-text answer that no handler gave (no adapter for the host, a refused request).
        private func plain(
            _ status: HTTPResponseStatus, _ message: String, _ head: HTTPRequestHead, _ context: ChannelHandlerContext,
            close: Bool = false
        ) {
            let bytes = context.channel.allocator.buffer(string: message)
            var headers = HTTPHeaders([
                ("content-type", "text/plain; charset=utf-8"), ("content-length", String(bytes.readableBytes)),
            ])
            let keepAlive = head.isKeepAlive && !close
            if !keepAlive { headers.add(name: "connection", value: "close") }
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                promise: nil)
            if head.method != .HEAD { context.write(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil) }
            let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            if !keepAlive {
                let channel = context.channel
                done.whenComplete { _ in channel.close(promise: nil) }
            }
        }
    }
#endif
