#if Firefox
    import SchemeKitBrowserSupport

    /// One message from the browser, as WebDriver BiDi's local end sees it
    /// (<https://w3c.github.io/webdriver-bidi/#protocol-definition>): the answer to a command, an
    /// error, or an event.
    package enum BiDiMessage: Sendable, Hashable {
        /// `{"type": "success", "id": N, "result": {…}}`.
        case success(id: Int, result: BiDiValue)
        /// `{"type": "error", "id": N|null, "error": "no such request", "message": "…"}`.
        case error(id: Int?, error: String, message: String)
        /// `{"type": "event", "method": "network.beforeRequestSent", "params": {…}}`.
        case event(BiDiEvent)

        /// Parses one message.
        ///
        /// - Throws: ``BiDiProtocolError`` when the bytes are no JSON, or the JSON is not one of the
        ///   three shapes (no `type`, an id that is not an integer, an event without a method…).
        package static func parse(_ bytes: UnsafeRawBufferPointer) throws(BiDiProtocolError) -> BiDiMessage {
            try parse(BiDiJSONReader.read(bytes))
        }

        /// Classifies a parsed JSON value; see ``parse(_:)-(UnsafeRawBufferPointer)``.
        package static func parse(_ value: BiDiValue) throws(BiDiProtocolError) -> BiDiMessage {
            guard case .object(let members) = value else { throw BiDiProtocolError("a message that is not an object") }
            guard let type = members["type"]?.stringValue else { throw BiDiProtocolError("a message without a type") }
            switch type {
            case "success":
                guard let id = members["id"]?.intValue else { throw BiDiProtocolError("a result without an id") }
                guard let result = members["result"], result.objectValue != nil else {
                    throw BiDiProtocolError("the result of command \(id) is not an object")
                }
                return .success(id: id, result: result)
            case "error":
                let id = members["id"]?.intValue
                if id == nil, let raw = members["id"], !raw.isNull {
                    throw BiDiProtocolError("an error whose id is not an integer")
                }
                guard let error = members["error"]?.stringValue else {
                    throw BiDiProtocolError("an error without an error code")
                }
                return .error(id: id, error: error, message: members["message"]?.stringValue ?? "")
            case "event":
                guard let method = members["method"]?.stringValue else {
                    throw BiDiProtocolError("an event without a method")
                }
                guard let params = members["params"], params.objectValue != nil else {
                    throw BiDiProtocolError("event \(method) without params")
                }
                return .event(BiDiEvent(method: method, params: params))
            default:
                throw BiDiProtocolError("a message of unknown type \(type)")
            }
        }
    }

    /// An event the browser sent: its method and parameters.
    package struct BiDiEvent: Sendable, Hashable {
        /// The event's name, such as `network.beforeRequestSent`.
        package var method: String
        /// Its parameters (an object).
        package var params: BiDiValue

        package init(method: String, params: BiDiValue) {
            self.method = method
            self.params = params
        }
    }
#endif
