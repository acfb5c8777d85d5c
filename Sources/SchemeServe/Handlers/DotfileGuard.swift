import Foundation
import SchemeKit

/// Answers 404 for any path with a dotfile or dot-directory segment (`.git/`, `.env`, `/.env/.`,
/// `%2eenv`), so secrets in the served directory never leave it unless `--dotfiles` is given.
///
/// The check runs on the percent-decoded segments; it is a first line — the file handler keeps
/// its own traversal rules.
struct DotfileGuard: SchemeHandler {
    var name: String { "dotfiles" }

    func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
        guard Self.hasDotSegment(request.path) else { return .passed }
        try await writer.respond(.notFound, body: request.method == .head ? Data() : Data("Not Found\n".utf8))
        return .handled
    }

    /// Whether a segment of the path (decoded once) starts with a dot; `.` and `..` segments are
    /// not dotfiles (the file handler normalises or refuses them).
    static func hasDotSegment(_ encodedPath: String) -> Bool {
        var path = encodedPath
        let needsDecoding = path.withUTF8 { bytes in
            bytes.contains(UInt8(ascii: "%")) || bytes.contains(UInt8(ascii: "\\"))
        }
        if needsDecoding {
            let decoded = encodedPath.removingPercentEncoding ?? encodedPath
            return decoded.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains {
                $0.hasPrefix(".") && $0 != "." && $0 != ".."
            }
        }
        // Fast path: a dot segment starts right after a slash.
        return path.withUTF8 { bytes in
            let slash = UInt8(ascii: "/")
            let dot = UInt8(ascii: ".")
            var index = 0
            while index + 1 < bytes.count {
                if bytes[index] == slash, bytes[index + 1] == dot {
                    var end = index + 1
                    while end < bytes.count, bytes[end] != slash { end += 1 }
                    let length = end - index - 1
                    let isDotOrDotDot = length == 1 || (length == 2 && bytes[index + 2] == dot)
                    if !isDotOrDotDot { return true }
                }
                index += 1
            }
            return false
        }
    }
}
