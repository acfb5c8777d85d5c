#if Chromium
    import SchemeKitBrowserSupport

    /// An event Chromium sent: its method, parameters and the session it belongs to.
    package struct CDPEvent: Sendable {
        /// The event's name, such as `Fetch.requestPaused`.
        package var method: String
        /// The event's parameters (an object).
        package var params: CDPValue
        /// The session the event came from; `nil` for the browser session.
        package var sessionId: String?

        /// Creates an event value.
        package init(method: String, params: CDPValue, sessionId: String?) {
            self.method = method
            self.params = params
            self.sessionId = sessionId
        }

        /// The parameters in a Swift shape.
        ///
        /// - Throws: `DecodingError` when they do not fit `type`.
        package func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
            try params.decode(as: T.self)
        }
    }
#endif
