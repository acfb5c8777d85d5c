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

    /// Whether a segment of the path (decoded once) starts with a dot.
    static func hasDotSegment(_ encodedPath: String) -> Bool {
        guard encodedPath.utf8.contains(UInt8(ascii: ".")) || encodedPath.contains("%") else { return false }
        let decoded = encodedPath.removingPercentEncoding ?? encodedPath
        // `.` and `..` segments are not dotfiles: the file handler normalises or refuses them.
        return decoded.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains {
            $0.hasPrefix(".") && $0 != "." && $0 != ".."
        }
    }
}
