#if Chromium || Firefox || WebKitGTK
    import Foundation
    import HTTPTypes
    package import NIOCore
    import NIOHTTP1
    package import SchemeKit

    /// One request of the page on a loopback origin connection, from its head to its end: the
    /// registry task's sink, the writer of its response to the connection, and its record.
    ///
    /// The task's sink calls (under the task's lock) only record and hand the bytes to the
    /// connection's event loop, in order; the response is written there. A writer that runs ahead
    /// of the browser waits in ``waitForCapacity()`` while more than ``highWaterMark`` bytes are
    /// written but not yet taken by the socket, so memory does not grow with the body.
    ///
    /// The exchange ends exactly once (``end(_:)``): answered (the response's end went out),
    /// failed (the handler threw: before its head the page gets a 500, or a 502 for an upstream's
    /// failure, as from a web server; in its body the connection is closed, so the page sees a
    /// network error, never half a body taken as whole), or stopped (the browser closed the connection,
    /// the request timed out, the adapter stopped, or the origin closed). Its record is published
    /// then, and nothing more reaches the connection for it.
    package final class LoopbackExchange: SchemeTaskSink, Sendable {
        /// How the exchange ended.
        package enum Ending: Sendable {
            case answered
            case failed(any Error)
            case stopped(SchemeRequestRecord.StopReason)
        }

        private struct State {
            var record: SchemeRequestRecord
            var task: SchemeTask?
            var headWritten = false
            var ended = false
            /// Body bytes handed to the connection and not yet written to the socket.
            var pending = 0
            var waiters: [CheckedContinuation<Void, Never>] = []
        }

        /// The bytes the socket may lag behind the writer before the writer waits.
        package static let highWaterMark = 1 << 20

        let channel: any Channel
        let route: LoopbackOriginRoute
        /// The adapter the route belongs to.
        let adapter: ObjectIdentifier
        /// When the request times out, if it does.
        let deadline: NIODeadline?
        /// The request was a `HEAD`: the response carries no body.
        private let isHead: Bool
        /// The connection stays open for the next request after this one.
        private let keepAlive: Bool
        /// Called once when the exchange ends, whatever the way (the origin drops it from its table).
        private let onEnd: @Sendable (LoopbackExchange) -> Void
        private let state: Locked<State>

        init(
            channel: any Channel, route: LoopbackOriginRoute, adapter: ObjectIdentifier, record: SchemeRequestRecord,
            isHead: Bool, keepAlive: Bool, onEnd: @escaping @Sendable (LoopbackExchange) -> Void
        ) {
            self.channel = channel
            self.route = route
            self.adapter = adapter
            self.isHead = isHead
            self.keepAlive = keepAlive
            self.onEnd = onEnd
            self.deadline = route.requestTimeout.map { .now() + .nanoseconds(Int64($0.nanosecondsClamped)) }
            self.state = Locked(State(record: record))
        }

        /// Starts `task`, the registry task whose sink this is.
        func start(_ task: SchemeTask) {
            state.withLock { $0.task = task }
            task.start()
        }

        // MARK: SchemeTaskSink (under the task's lock: record, hand over, never block)

        package func receive(_ response: SchemeResponse) {
            let (registryURL, url) = state.withLock { state in
                state.headWritten = true
                state.record.status = response.status.code
                return (state.record.registryURL, state.record.url)
            }
            let head = Self.head(response, registryURL: registryURL, url: url, keepAlive: keepAlive)
            let channel = self.channel
            channel.eventLoop.execute {
                channel.write(HTTPServerResponsePart.head(head), promise: nil)
            }
        }

        /// The HTTP head of `response` as the browser gets it: its fields, a `Location` on the
        /// registry's origin moved to the page's (`app://localhost/x` → `https://app.localhost/x`).
        static func head(_ response: SchemeResponse, registryURL: String, url: String, keepAlive: Bool)
            -> HTTPResponseHead
        {
            var headers = HTTPHeaders()
            for field in response.headerFields {
                headers.add(
                    name: field.name.rawName,
                    value: VirtualOriginMapping.browserValue(of: field, registryURL: registryURL, browserURL: url))
            }
            if !keepAlive { headers.replaceOrAdd(name: "connection", value: "close") }
            return HTTPResponseHead(
                version: .http1_1,
                status: HTTPResponseStatus(
                    statusCode: response.status.code, reasonPhrase: response.status.reasonPhrase),
                headers: headers)
        }

        package func receive(_ body: SchemeBody) {
            guard !isHead else { return }
            let channel = self.channel
            let count = body.count
            let buffer = body.withUnsafeBytes { channel.allocator.buffer(bytes: $0) }
            state.withLock { state in
                state.pending += count
                state.record.bytes += count
            }
            channel.eventLoop.execute { [self] in
                channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer))).whenComplete { [self] _ in
                    written(count)
                }
            }
        }

        package func finish() {
            let channel = self.channel
            let keepAlive = self.keepAlive
            channel.eventLoop.execute { [self] in
                channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { [self] result in
                    if case .failure = result {
                        end(.stopped(.canceledByPage))
                        return
                    }
                    guard end(.answered) != nil else { return }
                    if !keepAlive { channel.close(promise: nil) }
                }
            }
        }

        package func fail(_ error: any Error) {
            let (headWritten, task) = state.withLock { ($0.headWritten, $0.task) }
            guard !headWritten else {
                // In the body: the connection closes, so the page sees a network error, never half a
                // body taken as whole.
                guard end(.failed(error)) != nil else { return }
                channel.close(promise: nil)
                return
            }
            // Before its head: what a web server answers when its handler fails, as schemeserve does
            // (502 when the network handler's upstream failed, else 500). Closing the connection
            // instead would have the browser retry the request (a kept-alive connection closed before
            // a response reads as a stale one).
            let channel = self.channel
            let keepAlive = self.keepAlive
            channel.eventLoop.execute { [self] in
                let upstream = task?.respondingHandler == "network" || error is URLError
                let (status, message): (HTTPResponseStatus, String) =
                    upstream ? (.badGateway, "Bad Gateway\n") : (.internalServerError, "Internal Server Error\n")
                state.withLock { $0.record.status = Int(status.code) }
                let body = channel.allocator.buffer(string: message)
                var headers = HTTPHeaders([
                    ("content-type", "text/plain; charset=utf-8"), ("content-length", String(body.readableBytes)),
                    ("cache-control", "no-store"),
                ])
                if !keepAlive { headers.add(name: "connection", value: "close") }
                channel.write(
                    HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)),
                    promise: nil)
                if !isHead { channel.write(HTTPServerResponsePart.body(.byteBuffer(body)), promise: nil) }
                channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { [self] _ in
                    guard end(.failed(error)) != nil else { return }
                    if !keepAlive { channel.close(promise: nil) }
                }
            }
        }

        package func waitForCapacity() async {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let wait = state.withLock { state -> Bool in
                        guard !state.ended, state.pending > Self.highWaterMark, !Task.isCancelled else { return false }
                        state.waiters.append(continuation)
                        return true
                    }
                    if !wait { continuation.resume() }
                }
            } onCancel: {
                release()
            }
        }

        /// Bytes the socket took: wake writers once the lag is back under half the mark.
        private func written(_ count: Int) {
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.pending -= count
                guard state.pending <= Self.highWaterMark / 2 else { return [] }
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }

        private func release() {
            let waiters = state.withLock { state in
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }

        // MARK: Ending

        /// The browser closed the connection while the request was open.
        func connectionClosed() {
            stop(.canceledByPage)
        }

        /// Stops the request for `reason`: the task is stopped, the record published, and the
        /// connection closed (unless the browser closed it).
        ///
        /// - Returns: When the record is published (at once when the exchange had ended already).
        @discardableResult
        package func stop(_ reason: SchemeRequestRecord.StopReason) -> EventLoopFuture<Void> {
            guard let published = end(.stopped(reason)) else { return channel.eventLoop.makeSucceededVoidFuture() }
            if reason != .canceledByPage { channel.close(promise: nil) }
            return published
        }

        /// Ends the exchange once: records the outcome, stops the task unless it was answered,
        /// publishes the record. Returns when the record is published, or `nil` when the exchange
        /// had ended already.
        @discardableResult
        func end(_ ending: Ending) -> EventLoopFuture<Void>? {
            let ended = state.withLock {
                state -> (SchemeRequestRecord, SchemeTask?, [CheckedContinuation<Void, Never>])? in
                guard !state.ended else { return nil }
                state.ended = true
                switch ending {
                case .answered: state.record.outcome = .answered
                case .failed(let error): state.record.fail(error)
                case .stopped(let reason): state.record.outcome = .stopped(reason: reason)
                }
                state.record.duration = .now - state.record.started
                defer { state.waiters = [] }
                return (state.record, state.task, state.waiters)
            }
            guard let (record, task, waiters) = ended else { return nil }
            for waiter in waiters { waiter.resume() }
            if case .answered = ending {
            } else {
                task?.stop()  // allowed from inside the task's own sink
            }
            onEnd(self)
            // Published from the event loop, which never holds the task's lock (reading who
            // answered takes it).
            let client = route.client
            return channel.eventLoop.submit {
                var published = record
                published.handler = task?.respondingHandler
                client.ended(published)
            }
        }
    }

    extension Duration {
        /// The duration in nanoseconds, clamped to `Int64`.
        var nanosecondsClamped: Int64 {
            let (seconds, attoseconds) = components
            let (total, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            return overflow ? .max : total.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
        }
    }
#endif
