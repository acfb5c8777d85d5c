import Foundation
import SchemeKit

/// Lists a directory with no `index.html` as a small HTML page (only with `--list`).
///
/// Names are HTML-escaped and percent-encoded in links; dot entries are hidden unless dotfiles
/// are allowed. Resolution goes through ``ServePathResolver``, so nothing outside the root is
/// ever listed.
struct DirectoryListingHandler: SchemeHandler {
    let resolver: ServePathResolver
    let showDotfiles: Bool

    var name: String { "listing" }

    func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
        guard case .directory(let path) = resolver.resolve(request.path) else { return .passed }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let base = request.path.hasSuffix("/") ? request.path : request.path + "/"
        var html =
            "<!doctype html>\n<meta charset=\"utf-8\">\n<title>Index of \(Self.escape(base.removingPercentEncoding ?? base))</title>\n"
        html += "<h1>Index of \(Self.escape(base.removingPercentEncoding ?? base))</h1>\n<ul>\n"
        for name in names.sorted() where showDotfiles || !name.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isDirectory)
            let display = name + (isDirectory.boolValue ? "/" : "")
            let link =
                (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/", "?", "#", ";"]))
                    ?? "")
                + (isDirectory.boolValue ? "/" : "")
            html += "<li><a href=\"\(Self.escape(link))\">\(Self.escape(display))</a></li>\n"
        }
        html += "</ul>\n"
        try await writer.respond(.ok, mimeType: "text/html", body: request.method == .head ? Data() : Data(html.utf8))
        return .handled
    }

    /// Escapes `&`, `<`, `>`, `"` and `'` for HTML text and attribute values.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
