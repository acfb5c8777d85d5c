#if Firefox
    package import Foundation
    import SchemeKitBrowserSupport

    /// What SchemeKit reads of a `network.beforeRequestSent` event
    /// (<https://w3c.github.io/webdriver-bidi/#event-network-beforeRequestSent>).
    package struct BiDiRequestEvent: Sendable, Hashable {
        /// The request's id (`network.Request`), for `provideResponse` and friends.
        package var request: String
        package var url: String
        package var method: String
        /// The header fields in order, values decoded from `network.BytesValue` as UTF-8.
        package var headers: [BiDiHeader]
        /// The request body's size, when the browser knows it (0 without a body).
        package var bodySize: Int?
        /// The browsing context the request belongs to (`nil` for a worker's request).
        package var context: String?
        /// The navigation it is part of, for a document's own request.
        package var navigation: String?
        /// Whether an intercept holds it until the adapter answers.
        package var isBlocked: Bool
        /// The intercepts that hold it.
        package var intercepts: [String]
        /// Fetch's destination (`document`, `script`, `video`, …; empty for `fetch()`).
        package var destination: String?

        /// Reads the event's parameters.
        ///
        /// - Throws: ``BiDiProtocolError`` when a field SchemeKit needs is missing or of the wrong type.
        package init(params: BiDiValue) throws(BiDiProtocolError) {
            guard let request = params["request"], request.objectValue != nil else {
                throw BiDiProtocolError("network.beforeRequestSent without a request")
            }
            guard let id = request["request"]?.stringValue else {
                throw BiDiProtocolError("network.beforeRequestSent without a request id")
            }
            guard let url = request["url"]?.stringValue, let method = request["method"]?.stringValue else {
                throw BiDiProtocolError("network.beforeRequestSent \(id) without a URL or a method")
            }
            var headers: [BiDiHeader] = []
            if let list = request["headers"] {
                guard let entries = list.arrayValue else {
                    throw BiDiProtocolError("network.beforeRequestSent \(id): headers are not a list")
                }
                for entry in entries {
                    guard let name = entry["name"]?.stringValue, let value = entry["value"] else {
                        throw BiDiProtocolError("network.beforeRequestSent \(id): a header without a name or value")
                    }
                    headers.append(
                        BiDiHeader(name: name, value: String(decoding: try BiDiBytes.decode(value), as: UTF8.self)))
                }
            }
            self.request = id
            self.url = url
            self.method = method
            self.headers = headers
            self.bodySize = request["bodySize"]?.intValue
            self.context = params["context"]?.stringValue
            self.navigation = params["navigation"]?.stringValue
            self.isBlocked = params["isBlocked"]?.boolValue ?? false
            self.intercepts = params["intercepts"]?.arrayValue?.compactMap(\.stringValue) ?? []
            self.destination = request["destination"]?.stringValue
        }
    }

    /// A header field as BiDi carries it.
    package struct BiDiHeader: Sendable, Hashable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// `{"name": …, "value": {"type": "string", "value": …}}`.
        package var bidiValue: BiDiValue {
            ["name": .string(name), "value": ["type": "string", "value": .string(value)]]
        }
    }

    /// `network.BytesValue`: `{"type": "string", "value": "…"}` or `{"type": "base64", "value": "…"}`.
    package enum BiDiBytes {
        /// The bytes a `BytesValue` holds.
        ///
        /// - Throws: ``BiDiProtocolError`` for another shape or invalid base64.
        package static func decode(_ value: BiDiValue) throws(BiDiProtocolError) -> Data {
            guard let type = value["type"]?.stringValue, let text = value["value"]?.stringValue else {
                throw BiDiProtocolError("a BytesValue without a type or a value")
            }
            switch type {
            case "string": return Data(text.utf8)
            case "base64":
                guard let data = Data(base64Encoded: text) else {
                    throw BiDiProtocolError("a BytesValue with bad base64")
                }
                return data
            default: throw BiDiProtocolError("a BytesValue of type \(type)")
            }
        }
    }
#endif
