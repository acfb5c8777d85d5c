#if Chromium
    import Foundation
    import SchemeKit

    @testable import SchemeKitChromium
    import SchemeKitBrowserSupport

    /// A DevTools transport with no Chromium behind it: it records every command, answers each with
    /// an empty result, and lets a test feed the connection any message (a malformed event included).
    final class FakeChromiumTransport: ChromiumTransport {
        private let state = Locked(State())

        private struct State {
            var sent: [CDPValue] = []
            /// Commands the transport refuses to send, by method, with the error it refuses with.
            var refusals: [String: EngineError] = [:]
            weak var connection: ChromiumConnection?
        }

        var maximumMessageSize: Int? { nil }

        /// A connection over a fresh fake transport.
        static func connection(wireFormat: ChromiumWireFormat = .json) -> (ChromiumConnection, FakeChromiumTransport) {
            let connection = ChromiumConnection(wireFormat: wireFormat)
            let transport = FakeChromiumTransport()
            transport.state.withLock { $0.connection = connection }
            connection.attach(transport: transport)
            return (connection, transport)
        }

        /// CBOR whatever the connection's format: the cheapest codec both ways, so the fake costs
        /// the tests little.
        func frame(_ message: CDPValue) -> [Data] { CDPCBOR.encodePieces(message) }

        func enqueue(_ message: [Data], completion: @escaping @Sendable (EngineError?) -> Void) {
            guard let value = try? CDPCBOR.decode(Data(message.joined())) else {
                completion(EngineError(.malformedMessage, "not CBOR"))
                return
            }
            let (connection, refusal) = state.withLock { state in
                state.sent.append(value)
                return (state.connection, value["method"]?.stringValue.flatMap { state.refusals[$0] })
            }
            if let refusal {
                completion(refusal)
                return
            }
            completion(nil)
            if let id = value["id"]?.intValue {
                DispatchQueue.global().async {
                    connection?.receive(.object(["id": .int(id), "result": .object([:])]))
                }
            }
        }

        func shutDown() {
            let connection = state.withLock { $0.connection }
            connection?.terminate(EngineError(.disconnected, "the fake transport was shut down"))
        }

        /// From now on, commands named `method` fail to send with `error`, as a WebSocket refuses a
        /// message over its size limit.
        func refuse(_ method: String, with error: EngineError) {
            state.withLock { $0.refusals[method] = error }
        }

        /// The commands sent so far named `method`.
        func sent(_ method: String) -> [CDPValue] {
            state.withLock { $0.sent.filter { $0["method"]?.stringValue == method } }
        }
    }
#endif
