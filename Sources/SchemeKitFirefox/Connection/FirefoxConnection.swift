#if Firefox
    package import Foundation
    import NIOCore
    package import SchemeKit
    package import SchemeKitBrowserSupport

    /// A WebDriver BiDi connection to one Firefox: commands matched to their answers by id, events
    /// as async sequences. The protocol client under ``FirefoxBrowser`` (`package`, not public API).
    ///
    /// Every method is safe from any task. When the WebSocket closes (Firefox exited, the peer
    /// closed it, a message over the size limit, or a message that is not BiDi), every pending
    /// command throws `EngineError` (`EngineError.Code.disconnected`, or
    /// `EngineError.Code.malformedMessage` / `EngineError.Code.messageTooLarge` naming the
    /// cause), every later one throws it at once, and every event sequence ends: nothing waits forever.
    package final class FirefoxConnection: Sendable {
        /// The largest message either side may send, in bytes.
        package let maximumMessageSize: Int
        /// The commands and subscribers; a subscriber's filter is the event methods it wants (`nil`: all).
        private let core = ProtocolConnectionCore<BiDiValue, BiDiEvent, Set<String>?>()

        private let loopback = Locked<LoopbackOriginServer?>(nil)

        /// The launched browser's loopback https origin (``FirefoxLaunchOptions/loopbackOrigin``);
        /// `nil` for an attached browser or one launched without it.
        package var loopbackOrigin: LoopbackOriginServer? {
            get { loopback.withLock { $0 } }
            set { loopback.withLock { $0 = newValue } }
        }
        private let socket: Locked<WebSocketClient?> = Locked(nil)

        private init(maximumMessageSize: Int) {
            self.maximumMessageSize = maximumMessageSize
        }

        /// Opens a WebSocket to a BiDi endpoint (`ws://127.0.0.1:PORT/session`).
        ///
        /// - Throws: `EngineError.Code.connectFailed` naming the URL.
        package static func open(url: URL, maximumMessageSize: Int, timeout: Duration) async throws(EngineError)
            -> FirefoxConnection
        {
            let connection = FirefoxConnection(maximumMessageSize: maximumMessageSize)
            do {
                let socket = try await WebSocketClient.connect(
                    to: url, maximumMessageSize: maximumMessageSize, timeout: timeout,
                    onMessage: { [weak connection] in connection?.receive($0) },
                    onClose: { [weak connection] error in
                        connection?.terminate(
                            EngineError(
                                error.code == .messageTooLarge ? .messageTooLarge : .disconnected, error.message))
                    })
                connection.socket.withLock { $0 = socket }
            } catch {
                throw EngineError(.connectFailed, error.message)
            }
            return connection
        }

        /// Whether the connection is closed.
        package var isClosed: Bool { core.closedError != nil }

        /// Why the connection closed, once it has.
        package var closedError: EngineError? { core.closedError }

        /// Sends a command and returns its `result` object.
        ///
        /// - Throws: `EngineError`: `EngineError.Code.protocolError` (with BiDi's error code)
        ///   when Firefox answers with an error, `EngineError.Code.messageTooLarge` when the
        ///   command does not fit in one message (nothing is sent), or why the connection closed.
        @discardableResult
        package func send(_ method: String, _ params: BiDiValue = [:]) async throws -> BiDiValue {
            guard let socket = socket.withLock({ $0 }) else { throw EngineError(.disconnected, "not connected") }
            let id = core.nextCommandID()
            var writer = BiDiJSONWriter(capacity: 128)
            writer.write(["id": .int(id), "method": .string(method), "params": params])
            let message = writer.buffer
            // A cancelled caller stops waiting (the answer, if any, is dropped); Firefox still runs the command.
            return try await core.answer(to: id, label: method) { failed in
                do throws(WebSocketError) {
                    try socket.send(message)
                } catch {
                    failed(
                        error.code == .messageTooLarge
                            ? EngineError(.messageTooLarge, "\(method): \(error.message)")
                            : EngineError(.disconnected, error.message))
                }
            }
        }

        /// How many `method` commands wait for Firefox's answer (an observation for tests).
        package func pendingCommands(_ method: String) -> Int { core.pendingCount(labelled: method) }

        /// The events from now on, as they arrive.
        ///
        /// - Parameter methods: Only these events; `nil` (the default) for all.
        /// - Returns: A sequence that ends when the connection closes or the caller stops iterating.
        ///   Events are buffered without limit until read: read them promptly.
        package func events(methods: Set<String>? = nil) -> AsyncStream<BiDiEvent> {
            core.events(methods)
        }

        /// Returns when the connection has closed.
        package func waitUntilClosed() async {
            await core.waitUntilClosed()
        }

        /// Closes the connection: pending commands throw `EngineError.Code.disconnected`.
        package func close() {
            socket.withLock { $0 }?.close()
            terminate(EngineError(.disconnected, "the connection was closed"))
        }

        /// One message from Firefox (internal so that tests can hand it a message Firefox never
        /// sends). A message that is not BiDi closes the connection.
        func receive(_ buffer: ByteBuffer) {
            let parsed: Result<BiDiMessage, BiDiProtocolError> = buffer.withUnsafeReadableBytes { bytes in
                do throws(BiDiProtocolError) { return .success(try BiDiMessage.parse(bytes)) } catch {
                    return .failure(error)
                }
            }
            switch parsed {
            case .failure(let error):
                let preview = String(decoding: buffer.readableBytesView.prefix(120), as: UTF8.self)
                socket.withLock { $0 }?.close()
                terminate(
                    EngineError(
                        .malformedMessage,
                        "Firefox sent a message that is not WebDriver BiDi (\(error)); the connection was closed. It began: \(preview)"
                    ))
            case .success(.success(let id, let result)):
                core.resolve(id, with: .success(result))
            case .success(.error(let id, let code, let message)):
                guard let id else { return }  // about no command of ours: nothing waits for it
                core.resolve(
                    id,
                    with: .failure(EngineError(.protocolError, message.isEmpty ? code : message, protocolCode: code)))
            case .success(.event(let event)):
                core.publish(event) { methods in methods?.contains(event.method) ?? true }
            }
        }

        private func terminate(_ error: EngineError) {
            core.terminate(error)
        }
    }
#endif
