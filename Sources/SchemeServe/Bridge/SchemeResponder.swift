// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import HTTPTypes
    import Hummingbird
    import Logging
    import NIOCore
    import SchemeKit
    import Synchronization

    /// The engine adapter: an HTTP request in, a SchemeKit task through the registry, the task's
    /// response out.
    ///
    /// `http://127.0.0.1:8080/a/b.js?x` becomes `app://localhost/a/b.js?x` (scheme and host from
    /// the configuration), with the method and header fields kept. The response head and body come
    /// from the handler chain unchanged except for what HTTP needs on top: the security headers
    /// (`Cross-Origin-Resource-Policy: same-origin`, `X-Content-Type-Options: nosniff`), CORS for
    /// the configured origins, gzip for compressible bodies, the live-reload script with `--watch`,
    /// and header values with CR/LF/FF removed. A handler that fails before its head gets a 500
    /// (502 for upstream errors) with a short body; after the head the connection is closed.
    struct SchemeResponder: HTTPResponder {
        typealias Context = ServeRequestContext

        let registry: SchemeRegistry
        let scheme: String
        let appHost: String
        let requestGuard: RequestGuard
        let corsOrigins: Set<String>
        let gzip: Bool
        let liveReloadScript: Data?
        let accessLog: AccessLog?

        init(configuration: ServeConfiguration, registry: SchemeRegistry, accessLog: AccessLog?) {
            self.registry = registry
            self.scheme = configuration.scheme.lowercased()
            self.appHost = configuration.appHost.lowercased()
            self.requestGuard = RequestGuard(
                allowedHosts: configuration.allowedHosts, bindAddress: configuration.bindAddress)
            self.corsOrigins = Set(configuration.corsOrigins)
            self.gzip = configuration.gzip
            self.liveReloadScript = configuration.watch ? Data(LiveReload.script.utf8) : nil
            self.accessLog = accessLog
        }

        func respond(to request: Request, context: Context) async throws -> Response {
            let started = ContinuousClock.now
            let head = request.head
            let target = head.path ?? "/"
            if let rejection = requestGuard.check(head) {
                return finalise(plain(rejection.status, rejection.message, head), head, started, handler: "guard")
            }
            // Parsed once, from the parts HTTP already split: no `URL` is built on this path.
            guard
                let schemeRequest = try? SchemeRequest(
                    scheme: scheme, authority: appHost, path: target, method: head.method,
                    headerFields: head.headerFields)
            else {
                return finalise(plain(.badRequest, "Bad Request\n", head), head, started, handler: "guard")
            }

            let bridge = ResponseBridge()
            let task = registry.task(for: schemeRequest, sink: bridge)
            // The handler runs on this thread until its first real suspension: a small file or a
            // cache hit is complete before `bridge.start()`, with no hop to another thread. A
            // streaming handler suspends on back-pressure and goes on in its own task while this one
            // writes the body (so `await task.run()` here would deadlock on a large file).
            task.start(immediately: true)
            let start = await bridge.start(stopping: task)

            let response: SchemeResponse
            switch start {
            case .failed(let error):
                task.stop()
                let status: HTTPResponse.Status =
                    task.respondingHandler == "network" || error is URLError ? .badGateway : .internalServerError
                let message = status == .badGateway ? "Bad Gateway\n" : "Internal Server Error\n"
                return finalise(plain(status, message, head), head, started, handler: task.respondingHandler ?? "error")
            case .head(let value):
                response = value
            }

            var fields = response.headerFields
            ResponseTransforms.sanitise(&fields)
            addSecurityHeaders(&fields, request: head)
            var transforms = ResponseTransforms()
            let status = response.status
            if let script = liveReloadScript, status == .ok, fields[.contentEncoding] == nil,
                fields[.contentRange] == nil,
                fields[.contentType]?.lowercased().hasPrefix("text/html") == true
            {
                transforms.injectScript = script
                if let length = fields[.contentLength].flatMap(Int.init) {
                    fields[.contentLength] = String(length + script.count)
                }
            }
            if gzip, status == .ok, fields[.contentEncoding] == nil, fields[.contentRange] == nil,
                head.headerFields[.range] == nil,
                ResponseTransforms.isCompressible(fields[.contentType]),
                let accept = head.headerFields[.acceptEncoding], AcceptEncoding(accept).allows("gzip"),
                (fields[.contentLength].flatMap(Int.init) ?? Int.max) >= 256
            {
                transforms.gzip = true
                fields[.contentEncoding] = "gzip"
                fields[.contentLength] = nil
                fields[.vary] = fields[.vary].map { $0 + ", Accept-Encoding" } ?? "Accept-Encoding"
                if let etag = fields[.eTag], etag.hasSuffix("\"") {
                    fields[.eTag] = String(etag.dropLast()) + "-gzip\""
                }
            } else if gzip, status == .ok, ResponseTransforms.isCompressible(fields[.contentType]), fields[.vary] == nil
            {
                fields[.vary] = "Accept-Encoding"
            }
            let handler = task.respondingHandler ?? "unknown"

            // Fast path: the whole body is already here (small files, cache hits).
            if let chunks = bridge.completedBody() {
                var buffer: ByteBuffer
                if transforms.injectScript != nil || transforms.gzip {
                    var body = Data()
                    for chunk in chunks { body.append(contentsOf: chunk.readableBytesView) }
                    if let script = transforms.injectScript { body = ResponseTransforms.inject(script, into: body) }
                    if transforms.gzip, head.method != .head {
                        guard let compressed = try? GzipStream.compressWhole(body) else {
                            return finalise(
                                plain(.internalServerError, "Internal Server Error\n", head), head, started,
                                handler: handler)
                        }
                        buffer = compressed
                        fields[.contentLength] = String(buffer.readableBytes)
                    } else {
                        buffer = ByteBuffer(bytes: body)
                    }
                } else if chunks.count == 1 {
                    buffer = chunks[0]
                } else {
                    buffer = ByteBuffer()
                    buffer.reserveCapacity(chunks.reduce(0) { $0 + $1.readableBytes })
                    for var chunk in chunks { buffer.writeBuffer(&chunk) }
                }
                if head.method == .head { buffer = ByteBuffer() }
                let result = Response(status: status, headers: fields, body: ResponseBody(byteBuffer: buffer))
                accessLog?.record(
                    method: head.method, target: target, status: status.code, bytes: buffer.readableBytes,
                    started: started,
                    handler: handler)
                return result
            }

            let stopper = StopOnDrop(task: task, bridge: bridge)
            let finalTransforms = transforms
            let accessLog = self.accessLog
            let method = head.method
            let contentLength = transforms.gzip ? nil : fields[.contentLength].flatMap(Int.init)
            let eventLoop = context.eventLoop
            let body = ResponseBody(contentLength: contentLength) { writer in
                var sent = 0
                do {
                    sent = try await Self.stream(
                        bridge: bridge, transforms: finalTransforms, eventLoop: eventLoop, to: &writer)
                    stopper.completed()
                    accessLog?.record(
                        method: method, target: target, status: status.code, bytes: sent, started: started,
                        handler: handler
                    )
                } catch {
                    stopper.abort()
                    accessLog?.record(
                        method: method, target: target, status: status.code, bytes: sent, started: started,
                        handler: handler, aborted: true)
                    throw error
                }
            }
            var result = Response(status: status, headers: fields)
            result.body = body
            if contentLength == nil { result.headers[.contentLength] = nil }
            if let length = contentLength { result.headers[.contentLength] = String(length) }
            return result
        }

        /// Copies the bridge's chunks to the HTTP writer until the task ends; throws (which closes the
        /// connection) when the task fails after its head or the client goes away.
        ///
        /// The writer's back-pressure alone does not bound memory: it returns as soon as the channel
        /// *was* writable, and the channel learns that it is full only when its event loop runs the
        /// writes handed to it. On a loaded machine the loop can lag while the file is read at disk
        /// speed, and the writes queue up behind it (a 1 GiB download grew the server by 150 MB).
        /// So after every ``syncInterval`` bytes the loop waits for the event loop to catch up: at
        /// most that much is then queued on the channel beyond its own high-water mark.
        private static func stream(
            bridge: ResponseBridge,
            transforms: ResponseTransforms,
            eventLoop: any EventLoop,
            to writer: inout any ResponseBodyWriter
        ) async throws -> Int {
            var sent = 0
            var sinceSync = 0
            let gzipStream = transforms.gzip ? try GzipStream() : nil
            var pendingHTML = transforms.injectScript == nil ? nil : Data()
            while true {
                let batch = await bridge.next()
                if pendingHTML != nil {
                    for chunk in batch.chunks { pendingHTML?.append(contentsOf: chunk.readableBytesView) }
                } else if gzipStream == nil {
                    // One hand-over to the channel per batch: everything buffered since the last one.
                    switch batch.chunks.count {
                    case 0: break
                    case 1: try await writer.write(batch.chunks[0])
                    default: try await writer.write(contentsOf: batch.chunks)
                    }
                    for chunk in batch.chunks {
                        sent += chunk.readableBytes
                        sinceSync += chunk.readableBytes
                    }
                    if sinceSync >= syncInterval, batch.end == nil {
                        sinceSync = 0
                        try await eventLoop.submit {}.get()
                    }
                } else {
                    for chunk in batch.chunks {
                        sent += try await write(Data(chunk.readableBytesView), gzip: gzipStream, to: &writer)
                    }
                }
                switch batch.end {
                case nil:
                    continue
                case .failed(let error):
                    throw error
                case .finished:
                    if let html = pendingHTML, let script = transforms.injectScript {
                        sent += try await write(
                            ResponseTransforms.inject(script, into: html), gzip: gzipStream, to: &writer)
                    }
                    if let gzipStream {
                        for buffer in try gzipStream.compress(Data(), finish: true) {
                            sent += buffer.readableBytes
                            try await writer.write(buffer)
                        }
                    }
                    try await writer.finish(nil)
                    return sent
                }
            }
        }

        /// Bytes handed to the channel between two waits for its event loop (see
        /// ``stream(bridge:transforms:eventLoop:to:)``).
        static let syncInterval = 1 << 20

        private static func write(_ data: Data, gzip: GzipStream?, to writer: inout any ResponseBodyWriter) async throws
            -> Int
        {
            guard let gzip else {
                try await writer.write(ByteBuffer(bytes: data))
                return data.count
            }
            var sent = 0
            for buffer in try gzip.compress(data) {
                sent += buffer.readableBytes
                try await writer.write(buffer)
            }
            return sent
        }

        private func addSecurityHeaders(_ fields: inout HTTPFields, request: HTTPRequest) {
            fields[.crossOriginResourcePolicy] = "same-origin"
            fields[.xContentTypeOptions] = "nosniff"
            if !corsOrigins.isEmpty {
                fields[.accessControlAllowOrigin] = nil
                fields[.accessControlAllowCredentials] = nil
                if let origin = request.headerFields[.origin], corsOrigins.contains(origin) {
                    fields[.accessControlAllowOrigin] = origin
                    fields[.vary] = fields[.vary].map { $0 + ", Origin" } ?? "Origin"
                }
            }
        }

        private func plain(_ status: HTTPResponse.Status, _ message: String, _ head: HTTPRequest) -> Response {
            var fields = HTTPFields()
            fields[.contentType] = "text/plain; charset=utf-8"
            fields[.contentLength] = String(message.utf8.count)
            addSecurityHeaders(&fields, request: head)
            let body = head.method == .head ? ByteBuffer() : ByteBuffer(string: message)
            return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: body))
        }

        private func finalise(
            _ response: Response, _ head: HTTPRequest, _ started: ContinuousClock.Instant, handler: String
        ) -> Response {
            accessLog?.record(
                method: head.method,
                target: head.path ?? "",
                status: response.status.code,
                bytes: response.body.contentLength ?? 0,
                started: started,
                handler: handler
            )
            return response
        }
    }

    /// Stops the task when the response body is dropped without being written to the end (the
    /// client went away, the connection closed before the body was sent).
    private final class StopOnDrop: Sendable {
        let task: SchemeTask
        let bridge: ResponseBridge
        private let done = Atomic<Bool>(false)

        init(task: SchemeTask, bridge: ResponseBridge) {
            self.task = task
            self.bridge = bridge
        }

        func completed() { done.store(true, ordering: .relaxed) }

        func abort() {
            task.stop()
            bridge.cancelConsumer()
        }

        deinit {
            if !done.load(ordering: .relaxed) {
                task.stop()
                bridge.cancelConsumer()
            }
        }
    }
#endif
