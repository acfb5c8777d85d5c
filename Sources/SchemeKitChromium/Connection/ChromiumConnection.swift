#if Chromium
    import Foundation
    import SchemeKit
    package import SchemeKitBrowserSupport

    /// A DevTools-protocol connection to one Chromium: the handle an adapter serves through.
    ///
    /// Created by ``ChromiumBrowser/launch(_:)`` (over the pipe) or
    /// ``ChromiumBrowser/connect(to:maximumMessageSize:timeout:)`` (over a WebSocket) and handed to
    /// the adapter (``ChromiumSchemeAdapter/init(registry:browser:configuration:)``). The DevTools client itself
    /// (commands matched to replies by id, events as async sequences, flattened sessions routed by
    /// `sessionId`) is this package's own: pages and the adapter use it.
    ///
    /// When Chromium exits or the pipe closes, every pending command throws `EngineError` with
    /// code `EngineError.Code.disconnected`, every later one throws it at once, and every event
    /// sequence ends: nothing waits forever. A message from Chromium over 256 MiB closes the
    /// connection with `EngineError.Code.messageTooLarge`.
    package final class ChromiumConnection: Sendable {
        /// The wire format of this connection.
        package let wireFormat: ChromiumWireFormat
        private let core = ProtocolConnectionCore<CDPValue, CDPEvent, EventFilter>()
        private let pipe: Locked<(any ChromiumTransport)?> = Locked(nil)

        /// Which events a subscriber of ``events(sessionId:methods:bufferLimit:)`` gets.
        private struct EventFilter {
            var sessionId: String??
            var methods: Set<String>?
        }

        /// The adapters intercepting on this connection: one `Fetch.enable` for all of them.
        package let fetchInterception = ChromiumFetchInterception()

        private let loopback = Locked<LoopbackOriginServer?>(nil)

        /// The launched browser's loopback https origin (``ChromiumLaunchOptions/loopbackOrigin``);
        /// `nil` for an attached browser or one launched without it.
        package var loopbackOrigin: LoopbackOriginServer? {
            get { loopback.withLock { $0 } }
            set { loopback.withLock { $0 = newValue } }
        }

        /// How many events an ``events(sessionId:methods:bufferLimit:)`` sequence holds unread by
        /// default before it drops the oldest.
        package static let defaultEventBufferLimit = 1024

        init(wireFormat: ChromiumWireFormat) {
            self.wireFormat = wireFormat
        }

        /// Reads and writes the DevTools pipe on `descriptor`; a message from Chromium longer than
        /// `maximumMessageSize` closes the connection with `EngineError.Code.messageTooLarge`.
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
        package var isClosed: Bool { core.closedError != nil }

        /// Sends a command and returns its `result` object.
        ///
        /// - Parameters:
        ///   - method: The command, such as `Target.createTarget`.
        ///   - params: Its parameters (an object). Default: none.
        ///   - sessionId: The flattened session to send it to; `nil` (the default) for the browser.
        /// - Throws: `EngineError`: `EngineError.Code.protocolError` when Chromium answers
        ///   with an error, `EngineError.Code.disconnected` when the connection is or becomes closed.
        @discardableResult
        package func send(_ method: String, _ params: CDPValue = .object([:]), sessionId: String? = nil) async throws
            -> CDPValue
        {
            guard let pipe = pipe.withLock({ $0 }) else { throw EngineError(.disconnected, "not connected") }
            var message: [String: CDPValue] = ["method": .string(method), "params": params]
            if let sessionId { message["sessionId"] = .string(sessionId) }
            let id = core.nextCommandID()
            message["id"] = .int(id)
            let framed = pipe.frame(.object(message))
            // A cancelled caller stops waiting (the reply, if any, is dropped); Chromium still runs the command.
            return try await core.answer(to: id, group: sessionId, label: method) { failed in
                pipe.enqueue(framed) { error in
                    if let error { failed(error) }
                }
            }
        }

        /// How many `method` commands wait for Chromium's answer (an observation for tests).
        package func pendingCommands(_ method: String) -> Int { core.pendingCount(labelled: method) }

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
            core.events(
                EventFilter(sessionId: sessionId, methods: methods),
                bufferingPolicy: .bufferingNewest(max(1, bufferLimit)))
        }

        /// Returns when the connection has closed.
        package func waitUntilClosed() async {
            await core.waitUntilClosed()
        }

        /// Closes the connection: pending commands throw `EngineError.Code.disconnected`.
        package func close() {
            pipe.withLock { $0 }?.shutDown()
            terminate(EngineError(.disconnected, "the connection was closed"))
        }

        func receive(_ message: CDPValue) {
            if let id = message["id"]?.intValue {
                if let error = message["error"] {
                    core.resolve(
                        id,
                        with: .failure(
                            EngineError(
                                .protocolError, error["message"]?.stringValue ?? "error",
                                protocolCode: error["code"]?.intValue.map(String.init))))
                } else {
                    core.resolve(id, with: .success(message["result"] ?? .object([:])))
                }
                return
            }
            guard let method = message["method"]?.stringValue else { return }
            // A page's session that went away (closed, crashed, navigated out of this process)
            // answers nothing more: what waits for it fails now instead of forever.
            if method == "Target.detachedFromTarget", let session = message["params"]?["sessionId"]?.stringValue {
                core.fail(
                    group: session,
                    with: EngineError(
                        .disconnected, "the page's session \(session) ended (the page closed or crashed)"))
            }
            let event = CDPEvent(
                method: method, params: message["params"] ?? .object([:]), sessionId: message["sessionId"]?.stringValue)
            core.publish(event) { filter in
                if let sessionId = filter.sessionId, sessionId != event.sessionId { return false }
                if let methods = filter.methods, !methods.contains(method) { return false }
                return true
            }
        }

        /// Events dropped, oldest first, because a subscriber held ``events(sessionId:methods:bufferLimit:)``'s
        /// limit unread (one per subscriber that missed it).
        package var droppedEvents: Int { core.droppedEvents }

        func terminate(_ error: EngineError) {
            core.terminate(error)
        }
    }
#endif
