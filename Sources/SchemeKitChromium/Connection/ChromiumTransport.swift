#if Chromium
    import Foundation
    import SchemeKit
    import SchemeKitBrowserSupport

    /// How DevTools messages travel between a ``ChromiumConnection`` and Chromium: the pipe of a
    /// Chromium SchemeKit spawned, or a WebSocket to one it attached to.
    protocol ChromiumTransport: Sendable {
        /// One message, framed for this transport: pieces written in order, with nothing between
        /// them. A transport that can write a large body as it is (the CBOR pipe) makes it a piece
        /// of its own, so the message never holds a second copy of it.
        func frame(_ message: CDPValue) -> [Data]
        /// Queues a framed message (its pieces, in order), in call order; `completion` gets the
        /// error, if any.
        func enqueue(_ message: [Data], completion: @escaping @Sendable (EngineError?) -> Void)
        /// Closes the transport: the connection then sees it close.
        func shutDown()
        /// The largest message the transport carries, when it has a limit.
        var maximumMessageSize: Int? { get }
    }

    extension ChromiumTransport {
        /// The largest `Fetch.fulfillRequest` body one message carries: the message limit less room
        /// for the rest of the message, as base64 (JSON); `nil` without a limit.
        var maximumBodySize: Int? {
            guard let size = maximumMessageSize else { return nil }
            let room = min(16 << 10, size / 8)
            return max(0, (size - room) / 4 * 3)
        }
    }
#endif
