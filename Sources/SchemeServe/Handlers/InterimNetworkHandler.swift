import Foundation
import HTTPTypes
import SchemeKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// TEMPORARY: a minimal network fallback standing in for SchemeKit's `NetworkFallbackHandler`
/// (built on the `network` branch) until it is merged.
///
/// It fetches `origin + path?query` with `URLSession` and relays status, `Content-Type`,
/// `Cache-Control`, `ETag` and `Last-Modified`. Unlike the real handler it buffers the body;
/// upstream failures answer 502.
struct InterimNetworkHandler: SchemeHandler {
    let origin: URL
    let session: URLSession

    init(origin: URL) {
        self.origin = origin
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        configuration.timeoutIntervalForResource = 60
        self.session = URLSession(configuration: configuration)
    }

    var name: String { "network" }

    func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
        var text = origin.absoluteString
        if text.hasSuffix("/") { text.removeLast() }
        text += request.path
        if let query = request.query { text += "?" + query }
        guard let url = URL(string: text) else { return .passed }
        var upstream = URLRequest(url: url)
        upstream.httpMethod = request.method.rawValue
        for name in [HTTPField.Name.accept, .acceptLanguage, .range, .ifNoneMatch, .ifModifiedSince] {
            if let value = request.headerFields[name] { upstream.setValue(value, forHTTPHeaderField: name.rawName) }
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: upstream)
        } catch {
            try await writer.respond(.badGateway, body: Data("Bad Gateway\n".utf8))
            return .handled
        }
        guard let http = response as? HTTPURLResponse else {
            try await writer.respond(.badGateway, body: Data("Bad Gateway\n".utf8))
            return .handled
        }
        var fields = HTTPFields()
        for name in [HTTPField.Name.contentType, .cacheControl, .eTag, .lastModified, .contentRange] {
            if let value = http.value(forHTTPHeaderField: name.rawName) { fields[name] = value }
        }
        fields[.contentLength] = String(data.count)
        try await writer.writeHead(
            SchemeResponse(status: HTTPResponse.Status(code: http.statusCode), headerFields: fields))
        if request.method != .head, !data.isEmpty { try await writer.write(data) }
        try await writer.finish()
        return .handled
    }
}
