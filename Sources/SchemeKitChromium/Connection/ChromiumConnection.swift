#if Chromium
    import Foundation
    import SchemeKit

    /// A DevTools-protocol connection to one Chromium: the handle an adapter serves through.
    ///
    /// Created by ``ChromiumBrowser/launch(_:)`` (over the pipe) or
    /// ``ChromiumBrowser/connect(to:maximumMessageSize:timeout:)`` (over a WebSocket) and handed to
    /// ``ChromiumSchemeAdapter/init(registry:connection:configuration:)``. The DevTools client itself
    /// (commands matched to replies by id, events as async sequences, flattened sessions routed by
    /// `sessionId`) is this package's own: pages and the adapter use it.
    ///
    /// When Chromium exits or the pipe closes, every pending command throws ``ChromiumError`` with
    /// code ``ChromiumError/Code/disconnected``, every later one throws it at once, and every event
    /// sequence ends: nothing waits forever. A message from Chromium over 256 MiB closes the
    /// connection with ``ChromiumError/Code/messageTooLarge``.
    public final class ChromiumConnection: Sendable {
        /// The wire format of this connection.
        package let wireFormat: ChromiumWireFormat
        private let state = Locked(State())
        private let pipe: Locked<(any ChromiumTransport)?> = Locked(nil)

        private struct Subscriber {
            var sessionFilter: String??
            var methods: Set<String>?
            var continuation: AsyncStream<CDPEvent>.Continuation
        }

        private struct State {
            var nextID = 1
            var pending: [Int: CheckedContinuation<CDPValue, any Error>] = [:]
            var subscribers: [Int: Subscriber] = [:]
            var nextSubscriber = 0
            var closedError: ChromiumError?
            var closeWaiters: [CheckedContinuation<Void, Never>] = []
            var droppedEvents = 0
        }

        /// How many events an ``events(sessionId:methods:bufferLimit:)`` sequence holds unread by
        /// default before it drops the oldest.
        package static let defaultEventBufferLimit = 1024

        init(wireFormat: ChromiumWireFormat) {
            self.wireFormat = wireFormat
        }

        /// Reads and writes the DevTools pipe on `descriptor`; a message from Chromium longer than
        /// `maximumMessageSize` closes the connection with ``ChromiumError/Code/messageTooLarge``.
        func attach(
            descriptor: Int32, maximumMessageSize: Int = ChromiumMessageFramer.defaultMaximumMessageSize
        ) {
            let pipe = ChromiumPipe(
                descriptor: descriptor, format: wireFormat, maximumMessageSize: maximumMessageSize,
                onMessage: { [weak self] in self?.receive($0) },
                onClose: { [weak self] in self?.terminate($0) })
            self.pipe.withLock { $0 = pipe }
            pipe.start()
        }

        /// Uses an open transport (a DevTools WebSocket) instead of the pipe.
        func attach(transport: any ChromiumTransport) {
            pipe.withLock { $0 = transport }
        }

        /// The largest body one message on this connection can carry, when its transport limits
        /// messages (a WebSocket's maximum message size); `nil` over the pipe.
        var transportBodyLimit: Int? { pipe.withLock { $0 }?.maximumBodySize }

        /// The transport's maximum message size, when it has one.
        var maximumMessageSize: Int? { pipe.withLock { $0 }?.maximumMessageSize }

        /// Whether the connection is closed (Chromium gone or `close()` called).
        public var isClosed: Bool { state.withLock { $0.closedError != nil } }

        /// Sends a command and returns its `result` object.
        ///
        /// - Parameters:
        ///   - method: The command, such as `Target.createTarget`.
        ///   - params: Its parameters (an object). Default: none.
        ///   - sessionId: The flattened session to send it to; `nil` (the default) for the browser.
        /// - Throws: ``ChromiumError``: ``ChromiumError/Code/protocolError`` when Chromium answers
        ///   with an error, ``ChromiumError/Code/disconnected`` when the connection is or becomes closed.
        @discardableResult
        package func send(_ method: String, _ params: CDPValue = .object([:]), sessionId: String? = nil) async throws
            -> CDPValue
        {
            guard let pipe = pipe.withLock({ $0 }) else { throw ChromiumError(.disconnected, "not connected") }
            var message: [String: CDPValue] = ["method": .string(method), "params": params]
            if let sessionId { message["sessionId"] = .string(sessionId) }
            let id = state.withLock { state in
                defer { state.nextID += 1 }
                return state.nextID
            }
            message["id"] = .int(id)
            let framed = pipe.frame(.object(message))
            // A cancelled caller stops waiting (the reply, if any, is dropped); Chromium still runs the command.
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let refused: (any Error)? = state.withLock { state in
                        if let error = state.closedError { return error }
                        if Task.isCancelled { return CancellationError() }
                        state.pending[id] = continuation
                        return nil
                    }
                    if let refused {
                        continuation.resume(throwing: refused)
                        return
                    }
                    pipe.enqueue(framed) { [weak self] error in
                        guard let error else { return }
                        self?.state.withLock { $0.pending.removeValue(forKey: id) }?.resume(throwing: error)
                    }
                }
            } onCancel: {
                state.withLock { $0.pending.removeValue(forKey: id) }?.resume(throwing: CancellationError())
            }
        }

        /// Sends a typed command.
        ///
        /// - Throws: As ``send(_:_:sessionId:)``, and `DecodingError` when the result does not fit.
        @discardableResult
        package func send<Command: CDPCommand>(_ command: Command, sessionId: String? = nil) async throws
            -> Command.Result
        {
            let result = try await send(Command.method, try CDPValue(encoding: command), sessionId: sessionId)
            return try result.decode(as: Command.Result.self)
        }

        /// The events of one session (or of all), as they arrive.
        ///
        /// - Parameters:
        ///   - sessionId: `.some(nil)` for the browser session's events, `.some(id)` for one flattened
        ///     session's; `nil` (the default) for every event.
        ///   - methods: Only these events; `nil` (the default) for all.
        ///   - bufferLimit: How many events the sequence holds unread; past it the oldest is dropped
        ///     and counted in ``droppedEvents`` (the reader never stops for a slow subscriber).
        ///     Default: ``defaultEventBufferLimit`` (1024).
        /// - Returns: A sequence that ends when the connection closes or the caller stops iterating.
        package func events(
            sessionId: String?? = nil, methods: Set<String>? = nil, bufferLimit: Int = defaultEventBufferLimit
        ) -> AsyncStream<CDPEvent> {
            let (stream, continuation) = AsyncStream<CDPEvent>.makeStream(
                bufferingPolicy: .bufferingNewest(max(1, bufferLimit)))
            let key: Int? = state.withLock { state in
                guard state.closedError == nil else { return nil }
                let key = state.nextSubscriber
                state.nextSubscriber += 1
                state.subscribers[key] = Subscriber(
                    sessionFilter: sessionId, methods: methods, continuation: continuation)
                return key
            }
            guard let key else {
                continuation.finish()
                return stream
            }
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.subscribers.removeValue(forKey: key) }
            }
            return stream
        }

        /// Returns when the connection has closed.
        package func waitUntilClosed() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let closed = state.withLock { state in
                    if state.closedError != nil { return true }
                    state.closeWaiters.append(continuation)
                    return false
                }
                if closed { continuation.resume() }
            }
        }

        /// Closes the connection: pending commands throw ``ChromiumError/Code/disconnected``.
        package func close() {
            pipe.withLock { $0 }?.shutDown()
            terminate(ChromiumError(.disconnected, "the connection was closed"))
        }

        func receive(_ message: CDPValue) {
            if let id = message["id"]?.intValue {
                guard let continuation = state.withLock({ $0.pending.removeValue(forKey: id) }) else { return }
                if let error = message["error"] {
                    continuation.resume(
                        throwing: ChromiumError(
                            .protocolError, error["message"]?.stringValue ?? "error",
                            protocolCode: error["code"]?.intValue))
                } else {
                    continuation.resume(returning: message["result"] ?? .object([:]))
                }
                return
            }
            guard let method = message["method"]?.stringValue else { return }
            let event = CDPEvent(
                method: method, params: message["params"] ?? .object([:]), sessionId: message["sessionId"]?.stringValue)
            let targets = state.withLock { state in
                state.subscribers.values.filter { subscriber in
                    if let filter = subscriber.sessionFilter, filter != event.sessionId { return false }
                    if let methods = subscriber.methods, !methods.contains(method) { return false }
                    return true
                }.map(\.continuation)
            }
            var dropped = 0
            for continuation in targets {
                if case .dropped = continuation.yield(event) { dropped += 1 }
            }
            if dropped > 0 { state.withLock { $0.droppedEvents += dropped } }
        }

        /// Events dropped, oldest first, because a subscriber held ``events(sessionId:methods:bufferLimit:)``'s
        /// limit unread (one per subscriber that missed it).
        package var droppedEvents: Int { state.withLock { $0.droppedEvents } }

        func terminate(_ error: ChromiumError) {
            let (pending, subscribers, waiters) = state.withLock { state in
                if state.closedError == nil { state.closedError = error }
                defer {
                    state.pending = [:]
                    state.subscribers = [:]
                    state.closeWaiters = []
                }
                return (state.pending, state.subscribers, state.closeWaiters)
            }
            for continuation in pending.values { continuation.resume(throwing: error) }
            for subscriber in subscribers.values { subscriber.continuation.finish() }
            for waiter in waiters { waiter.resume() }
        }
    }
#endif
