#if Chromium
    import Foundation
    import SchemeKit
    import SchemeKitBrowserSupport

    extension CDP.RequestPaused {
        /// Reads a `Fetch.requestPaused` event's parameters straight from the protocol value, with no
        /// JSON round trip: the one decode per intercepted request.
        ///
        /// As strict as the `Decodable` conformance: a required field missing or of the wrong type,
        /// or an optional one of the wrong type, throws.
        ///
        /// - Throws: `EngineError` with code `EngineError.Code.malformedMessage`, naming the field.
        init(params: CDPValue) throws(EngineError) {
            guard case .object(let members) = params else { throw Self.malformed("params", "an object") }
            let request: CDPValue? = members["request"]
            guard case .object(let fields)? = request else { throw Self.malformed("request", "an object") }
            var headers: [String: String] = [:]
            guard case .object(let headerMembers)? = fields["headers"] else {
                throw Self.malformed("request.headers", "an object")
            }
            headers.reserveCapacity(headerMembers.count)
            for (name, value) in headerMembers {
                guard case .string(let text) = value else {
                    throw Self.malformed("request.headers.\(name)", "a string")
                }
                headers[name] = text
            }
            var entries: [CDP.PostDataEntry]?
            switch fields["postDataEntries"] {
            case nil, .null?: entries = nil
            case .array(let elements)?:
                entries = try elements.map { element throws(EngineError) in
                    guard case .object(let entry) = element else {
                        throw Self.malformed("request.postDataEntries", "an array of objects")
                    }
                    switch entry["bytes"] {
                    case nil, .null?: return CDP.PostDataEntry(bytes: nil)
                    case .string(let text)?: return CDP.PostDataEntry(bytes: text)
                    case .binary(let data)?: return CDP.PostDataEntry(bytes: data.base64EncodedString())
                    default: throw Self.malformed("request.postDataEntries.bytes", "binary")
                    }
                }
            default: throw Self.malformed("request.postDataEntries", "an array")
            }
            self.init(
                requestId: try Self.string(members["requestId"], "requestId"),
                request: CDP.Request(
                    url: try Self.string(fields["url"], "request.url"),
                    urlFragment: try Self.optionalString(fields["urlFragment"], "request.urlFragment"),
                    method: try Self.string(fields["method"], "request.method"),
                    headers: headers,
                    postData: try Self.optionalString(fields["postData"], "request.postData"),
                    hasPostData: try Self.optionalBool(fields["hasPostData"], "request.hasPostData"),
                    postDataEntries: entries),
                frameId: try Self.optionalString(members["frameId"], "frameId"),
                resourceType: try Self.optionalString(members["resourceType"], "resourceType"),
                networkId: try Self.optionalString(members["networkId"], "networkId"),
                responseStatusCode: try Self.optionalInt(members["responseStatusCode"], "responseStatusCode"))
        }

        private static func malformed(_ field: String, _ expected: String) -> EngineError {
            EngineError(.malformedMessage, "Fetch.requestPaused: \(field) is not \(expected)")
        }

        private static func string(_ value: CDPValue?, _ field: String) throws(EngineError) -> String {
            guard case .string(let text)? = value else { throw malformed(field, "a string") }
            return text
        }

        private static func optionalString(_ value: CDPValue?, _ field: String) throws(EngineError) -> String? {
            switch value {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw malformed(field, "a string")
            }
        }

        private static func optionalBool(_ value: CDPValue?, _ field: String) throws(EngineError) -> Bool? {
            switch value {
            case nil, .null?: return nil
            case .bool(let flag)?: return flag
            default: throw malformed(field, "a Boolean")
            }
        }

        private static func optionalInt(_ value: CDPValue?, _ field: String) throws(EngineError) -> Int? {
            switch value {
            case nil, .null?: return nil
            case let number?:
                guard let integer = number.intValue else { throw malformed(field, "an integer") }
                return integer
            }
        }
    }
#endif
