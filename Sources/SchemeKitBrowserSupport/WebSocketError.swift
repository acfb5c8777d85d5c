#if Chromium || Firefox
    /// Why a WebSocket to a browser could not be opened, refused a message, or closed.
    ///
    /// A struct wrapping a private enum, so new reasons do not break callers; compare ``code``s.
    package struct WebSocketError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The kind of failure.
        package enum Code: Sendable, Hashable {
            /// The URL is not a `ws://` URL with a host.
            case unsupportedURL
            /// The TCP connection or the HTTP upgrade failed, or did not finish in time.
            case connectFailed
            /// A message is larger than the connection's maximum message size (either direction).
            case messageTooLarge
            /// The connection is closed: by the peer, by a protocol error, or by ``WebSocketClient/close()``.
            case closed
        }

        /// The kind of failure.
        package let code: Code
        /// A sentence for a person, naming the URL or the limit involved.
        package let message: String

        package init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }

        package var description: String { message }
    }
#endif
