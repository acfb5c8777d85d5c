import Foundation
import SchemeKit

/// Turns a completed exchange into a ``HAREntry``: the request's head, query, cookies and body;
/// the response's head, cookies and body (text, base64 or a body file); the timings.
struct HAREntryBuilder {
    let request: SchemeRequest
    let requestBody: Data?
    let options: HARRecordingOptions
    let store: HARStore

    func entry(
        started: Date, wait: Duration, receive: Duration, response: SchemeResponse, body: HARBodySpool
    ) throws(HARError) -> HAREntry {
        let url = options.url.url(for: request)
        let contentType = response.headerFields[.contentType]
        let content = try Self.content(
            body, contentType: contentType, fileExtension: fileExtension(contentType: contentType))
        let responseHeaders = response.headerFields.map { field in
            HARNameValue(
                name: field.name.rawName, value: field.name == .location ? recordedLocation(field.value) : field.value)
        }
        return HAREntry(
            startedDateTime: started.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            time: Self.milliseconds(wait + receive),
            request: HARRequest(
                method: request.method.rawValue,
                url: url,
                httpVersion: "HTTP/1.1",
                cookies: Self.requestCookies(request.headerFields[values: .cookie]),
                headers: request.headerFields.map { HARNameValue(name: $0.name.rawName, value: $0.value) },
                queryString: Self.queryParameters(request.query),
                postData: try postData(),
                headersSize: -1,
                bodySize: requestBody?.count ?? 0
            ),
            response: HARResponse(
                status: response.status.code,
                statusText: response.status.reasonPhrase,
                httpVersion: "HTTP/1.1",
                cookies: response.headerFields[values: .setCookie].map(Self.responseCookie),
                headers: responseHeaders,
                content: content,
                redirectURL: response.headerFields[.location].map(recordedLocation) ?? "",
                headersSize: -1,
                bodySize: body.count
            ),
            // Required by HAR 1.2 (an empty object: nothing came from a cache), as Playwright writes it.
            cache: .object([:]),
            timings: HARTimings(
                blocked: -1, dns: -1, connect: -1, send: 0, wait: Self.milliseconds(wait),
                receive: Self.milliseconds(receive), ssl: -1)
        )
    }

    /// A `Location` on the request's own origin (`app://localhost/next`, as the network handler
    /// gives a redirect the origin made to itself) recorded the way the request's URL is
    /// (``HARRecordingOptions/url``: `http://127.0.0.1:8080/next` for schemeserve), so that a
    /// replay sends the page where it would have gone; any other `Location` as it is.
    func recordedLocation(_ location: String) -> String {
        guard var origin = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else { return location }
        origin.percentEncodedPath = ""
        origin.percentEncodedQuery = nil
        guard let originURL = origin.url, let path = RedirectLocation.path(of: location, on: originURL) else {
            return location
        }
        let parts = path.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        guard let target = try? SchemeRequest(originURL.absoluteString + parts[0]) else { return location }
        let recorded = options.url.url(for: target)
        return parts.count == 2 ? recorded + "#" + parts[1] : recorded
    }

    /// The response body as HAR `content`.
    static func content(_ body: HARBodySpool, contentType: String?, fileExtension: String) throws(HARError)
        -> HARContent
    {
        let mimeType = contentType ?? "x-unknown"
        switch try body.finish(fileExtension: fileExtension) {
        case .file(let name, _):
            return HARContent(size: body.count, mimeType: mimeType, file: name)
        case .inline(let data):
            if let text = textual(data, contentType: contentType) {
                return HARContent(size: data.count, mimeType: mimeType, text: text)
            }
            return HARContent(
                size: data.count, mimeType: mimeType, text: data.base64EncodedString(), encoding: "base64")
        }
    }

    /// The request body as HAR `postData`, or `nil` for none.
    private func postData() throws(HARError) -> HARPostData? {
        guard let requestBody, !requestBody.isEmpty else { return nil }
        let contentType = request.headerFields[.contentType]
        let spool = HARBodySpool(
            directory: store.directory ?? URL(fileURLWithPath: "/"), limit: options.maxInlineBodySize)
        spool.append(requestBody)
        let mimeType = contentType ?? ""
        switch try spool.finish(fileExtension: "bin") {
        case .file(let name, _):
            return HARPostData(mimeType: mimeType, file: name)
        case .inline(let data):
            if let text = Self.textual(data, contentType: contentType) {
                return HARPostData(mimeType: mimeType, text: text)
            }
            return HARPostData(mimeType: mimeType, text: data.base64EncodedString(), encoding: "base64")
        }
    }

    /// The body as text, when its type is textual and its bytes are UTF-8.
    static func textual(_ data: Data, contentType: String?) -> String? {
        guard let contentType, let type = MediaType(rawValue: contentType),
            type.isText || type.essence == "application/x-www-form-urlencoded"
        else { return data.isEmpty ? "" : nil }
        return String(validating: data, as: UTF8.self)
    }

    /// The body file's extension: the URL's, when it is a short alphanumeric one; else from the type.
    private func fileExtension(contentType: String?) -> String {
        let fromPath = request.pathExtension
        if !fromPath.isEmpty, fromPath.count <= 8, fromPath.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            return fromPath
        }
        switch contentType.flatMap(MediaType.init(rawValue:))?.essence {
        case "application/json": return "json"
        case "text/html": return "html"
        case "text/plain": return "txt"
        case "image/png": return "png"
        case "image/jpeg": return "jpg"
        case "video/mp4": return "mp4"
        default: return "bin"
        }
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// `a=1&b=%20` → (a, 1), (b, " ").
    static func queryParameters(_ query: String?) -> [HARNameValue] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).removingPercentEncoding ?? String($0)
            }
            return HARNameValue(name: parts[0], value: parts.count > 1 ? parts[1] : "")
        }
    }

    /// `Cookie: a=1; b=2` → two cookies.
    static func requestCookies(_ values: [String]) -> [HARCookie] {
        values.flatMap { value in
            value.split(separator: ";").compactMap { pair -> HARCookie? in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { return nil }
                return HARCookie(
                    name: name, value: parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
            }
        }
    }

    /// `Set-Cookie: id=1; Path=/; HttpOnly; Secure; SameSite=Lax` → one cookie with its attributes.
    static func responseCookie(_ value: String) -> HARCookie {
        var attributes = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        let first = attributes.isEmpty ? "" : attributes.removeFirst()
        let pair = first.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        var cookie = HARCookie(name: pair.first.map(String.init) ?? "", value: pair.count > 1 ? String(pair[1]) : "")
        for attribute in attributes {
            let parts = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? String(parts[1]) : ""
            switch parts[0].lowercased() {
            case "path": cookie.path = value
            case "domain": cookie.domain = value
            case "expires": cookie.expires = value
            case "httponly": cookie.httpOnly = true
            case "secure": cookie.secure = true
            case "samesite": cookie.sameSite = value
            default: break
            }
        }
        return cookie
    }
}
