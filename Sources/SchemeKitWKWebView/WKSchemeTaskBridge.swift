#if SCHEMEKIT_WEBKIT_STANDIN
    import WebKitStandIn
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
#elseif canImport(WebKit)
    import WebKit
#endif

#if SCHEMEKIT_WEBKIT_STANDIN || canImport(WebKit)
    import Foundation
    import SchemeKit

    /// The one place that calls a `WKURLSchemeTask`: on the main actor, in WebKit's order (one
    /// response, then data, then `didFinish`; or `didFailWithError` at any point before the end).
    ///
    /// The guarded task already delivers at most one head, body only after it and one terminal
    /// event, and nothing after a stop. The bridge checks the same order again on the main actor
    /// (``stopped``, ``phase``) and drops, and counts, what would break it (``dropped``: 0 when the
    /// guarded lifecycle holds), so that no path — an immediate answer, a refusal, a future change —
    /// can raise one of WebKit's `NSInternalInconsistencyException`s.
    @MainActor
    final class WKSchemeTaskBridge {
        enum Phase {
            /// No response yet.
            case awaitingResponse
            /// The response was sent; data may follow.
            case responded
            /// `didFinish` or `didFailWithError` was called.
            case ended
        }

        private let schemeTask: any WKURLSchemeTask
        private let url: URL
        private let key: ObjectIdentifier
        private let pieceSize: Int
        private let sendsBody: Bool
        private let extraFields: HTTPFields
        private weak var adapter: WKWebViewSchemeAdapter?
        private(set) var phase = Phase.awaitingResponse
        /// Set by `webView(_:stop:)`: from then on nothing reaches the task.
        var stopped = false
        /// Calls dropped because they would have broken WebKit's order.
        private(set) var dropped = 0

        init(
            schemeTask: any WKURLSchemeTask, url: URL, pieceSize: Int, sendsBody: Bool, extraFields: HTTPFields,
            adapter: WKWebViewSchemeAdapter
        ) {
            self.schemeTask = schemeTask
            self.url = url
            self.key = ObjectIdentifier(schemeTask)
            self.pieceSize = pieceSize
            self.sendsBody = sendsBody
            self.extraFields = extraFields
            self.adapter = adapter
        }

        private var open: Bool { !stopped && phase != .ended }

        func receive(_ response: SchemeResponse) {
            guard open, phase == .awaitingResponse else { return drop() }
            phase = .responded
            schemeTask.didReceive(Self.urlResponse(response, url: url, adding: extraFields))
        }

        /// Hands `body` to WebKit in pieces of at most `pieceSize` bytes.
        func receive(_ body: SchemeBody) {
            guard open, phase == .responded else { return drop() }
            guard sendsBody, !body.isEmpty else { return }
            let data = body.data
            var offset = data.startIndex
            while offset < data.endIndex {
                let end = data.index(offset, offsetBy: pieceSize, limitedBy: data.endIndex) ?? data.endIndex
                schemeTask.didReceive(data.subdata(in: offset..<end))
                offset = end
            }
        }

        func finish() {
            guard open, phase == .responded else { return drop() }
            phase = .ended
            schemeTask.didFinish()
            adapter?.ended(key)
        }

        /// A failure before the response that has an HTTP status (a request body over the limit →
        /// 413) is answered with that status; any other failure reaches WebKit as `didFailWithError`.
        func fail(_ error: any Error) {
            guard open else { return drop() }
            if phase == .awaitingResponse, let status = Self.status(for: error) {
                let (head, body) = Self.plainText(status, "\(status.reasonPhrase)\n")
                receive(head)
                receive(SchemeBody(body))
                return finish()
            }
            phase = .ended
            schemeTask.didFailWithError(error)
            adapter?.ended(key)
        }

        /// Delivers a response known at once: head, body in pieces, finish.
        func deliver(_ response: SchemeCollectedResponse) {
            receive(response.head)
            if !response.body.isEmpty { receive(SchemeBody(response.body)) }
            finish()
        }

        private func drop() {
            dropped += 1
        }

        /// The status a failure before any head is answered with, when it has one.
        static func status(for error: any Error) -> HTTPResponse.Status? {
            if let error = error as? EngineError, error.code == .bodyTooLarge { return .contentTooLarge }
            if error is SchemeRequestBodyTooLarge { return .contentTooLarge }
            return nil
        }

        /// A plain-text response (`text/plain; charset=utf-8` with its length).
        static func plainText(_ status: HTTPResponse.Status, _ text: String) -> (SchemeResponse, Data) {
            let body = Data(text.utf8)
            let head = SchemeResponse(
                status: status, mimeType: "text/plain", textEncodingName: "utf-8",
                expectedContentLength: Int64(body.count))
            return (head, body)
        }

        /// The `HTTPURLResponse` for `response`: its status and header fields (repeated fields
        /// joined with `, `), plus `extra` (CORS) where the response has none of its own.
        static func urlResponse(_ response: SchemeResponse, url: URL, adding extra: HTTPFields) -> HTTPURLResponse {
            var fields: [String: String] = [:]
            for field in response.headerFields {
                let name = field.name.canonicalName
                fields[name] = fields[name].map { "\($0), \(field.value)" } ?? field.value
            }
            for field in extra where response.headerFields[field.name] == nil {
                fields[field.name.canonicalName] = field.value
            }
            return HTTPURLResponse(
                url: url, statusCode: response.status.code, httpVersion: "HTTP/1.1", headerFields: fields)!
        }
    }
#endif
