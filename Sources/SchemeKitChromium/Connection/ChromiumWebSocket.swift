#if Chromium
    import Foundation
    import SchemeKit
    import NIOCore
    import SchemeKitBrowserSupport

    /// The DevTools protocol over a WebSocket (`ws://…/devtools/browser/<id>`): JSON text messages,
    /// each at most the socket's maximum message size.
    ///
    /// A message Chromium sends that is not JSON closes the connection with
    /// `EngineError.Code.malformedMessage`; one over the size limit closes it with
    /// `EngineError.Code.bodyTooLarge` naming the limit. A message of ours over the limit is
    /// refused (the command throws) and the connection stays up.
    final class ChromiumWebSocket: ChromiumTransport {
        private let socket: WebSocketClient

        private init(socket: WebSocketClient) {
            self.socket = socket
        }

        /// Opens the WebSocket and wires it to `connection`.
        static func open(
            url: URL, maximumMessageSize: Int, timeout: Duration, connection: ChromiumConnection
        ) async throws(EngineError) -> ChromiumWebSocket {
            do {
                let socket = try await WebSocketClient.connect(
                    to: url, maximumMessageSize: maximumMessageSize, timeout: timeout,
                    onMessage: { [weak connection] buffer in
                        guard let connection else { return }
                        do {
                            connection.receive(try CDPJSON.decode(Data(buffer.readableBytesView)))
                        } catch {
                            connection.terminate(
                                EngineError(.malformedMessage, "Chromium sent a message that is not JSON: \(error)"))
                            connection.close()
                        }
                    },
                    onClose: { [weak connection] error in
                        connection?.terminate(
                            EngineError(error.code == .messageTooLarge ? .bodyTooLarge : .disconnected, error.message)
                        )
                    })
                return ChromiumWebSocket(socket: socket)
            } catch {
                throw EngineError(.launchFailed, error.message)
            }
        }

        /// JSON, no terminator: the WebSocket frames it.
        func frame(_ message: CDPValue) -> [Data] { [CDPJSON.encode(message)] }

        func enqueue(_ message: [Data], completion: @escaping @Sendable (EngineError?) -> Void) {
            do throws(WebSocketError) {
                var buffer = ByteBuffer()
                buffer.reserveCapacity(message.reduce(0) { $0 + $1.count })
                for piece in message { buffer.writeBytes(piece) }
                try socket.send(buffer)
                completion(nil)
            } catch {
                completion(EngineError(error.code == .messageTooLarge ? .bodyTooLarge : .disconnected, error.message))
            }
        }

        func shutDown() { socket.close() }

        var maximumMessageSize: Int? { socket.maximumMessageSize }
    }
#endif
