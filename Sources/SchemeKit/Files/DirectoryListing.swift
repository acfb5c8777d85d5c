import Foundation

/// The HTML page ``LocalFileHandler`` answers for a directory without an index file when
/// ``LocalFileHandler/Configuration/directoryListing`` is on.
///
/// Every name is HTML-escaped in the text and percent-encoded (then HTML-escaped) in the link;
/// links are absolute paths, so they work with or without a trailing slash in the request. The
/// page shows the request path, never a filesystem path.
struct DirectoryListing {
    var requestPath: String
    var entries: [(name: String, isDirectory: Bool)]

    var html: String {
        let base = requestPath.hasSuffix("/") ? requestPath : requestPath + "/"
        let title = Self.escapeHTML(base)
        var page = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Index of \(title)</title></head>
            <body><h1>Index of \(title)</h1>
            <ul>

            """
        if base != "/" { page += "<li><a href=\"../\">../</a></li>\n" }
        let sorted = entries.sorted { ($0.isDirectory ? 0 : 1, $0.name) < ($1.isDirectory ? 0 : 1, $1.name) }
        for entry in sorted {
            let suffix = entry.isDirectory ? "/" : ""
            let href = Self.escapeHTML(Self.encodeURLPath(base) + Self.encodeComponent(entry.name) + suffix)
            page += "<li><a href=\"\(href)\">\(Self.escapeHTML(entry.name + suffix))</a></li>\n"
        }
        page += "</ul></body></html>\n"
        return page
    }

    static func escapeHTML(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// Percent-encodes everything but unreserved characters (RFC 3986), so a name can never
    /// introduce a separator, a query or a scheme.
    static func encodeComponent(_ name: String) -> String {
        var result = ""
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return result
    }

    /// Re-encodes a decoded request path component by component.
    static func encodeURLPath(_ path: String) -> String {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { encodeComponent(String(decoding: $0, as: UTF8.self)) }
            .joined(separator: "/")
    }
}

extension LocalFileHandler {
    func respondWithListing(
        of directory: FileDescriptorStat, path: SafeRelativePath, request: SchemeRequest,
        writer: some SchemeResponseWriter
    ) async throws {
        guard var entries = POSIX.directoryEntries(directory.fd) else {
            let refusal = refusal(.forbidden, request: request)
            try await writer.respond(refusal.head, body: refusal.body)
            return
        }
        if configuration.hiddenFiles == .deny { entries.removeAll { $0.name.utf8.first == UInt8(ascii: ".") } }
        let page = DirectoryListing(requestPath: path.decodedPath, entries: entries).html
        let body = Data(page.utf8)
        var head = SchemeResponse(
            status: .ok, mimeType: "text/html", textEncodingName: "utf-8", expectedContentLength: Int64(body.count))
        head.headerFields[.cacheControl] = "no-cache"
        try await writer.writeHead(head)
        if request.method != .head { try await writer.write(body) }
        try await writer.finish()
    }
}
