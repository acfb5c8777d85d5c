public import Foundation
public import SchemeKit

/// TEMPORARY — a minimal directory handler for the sample and its tests, until SchemeKit's
/// `LocalFileHandler` (branch `files`) is merged into `main`; then this file is deleted and
/// `LocalFileHandler(root:)` is used instead.
///
/// Serves GET/HEAD for files under `root` (no `..`, no hidden files), with a small MIME table and
/// one `Range: bytes=a-b` (206 / 416); bodies stream in 64 KiB chunks. Passes when no file matches.
public struct TemporaryFileHandler: SchemeHandler {
    /// The directory served.
    public let root: URL

    /// Creates a handler for `root`.
    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    /// "files".
    public var name: String { "files" }

    static let types: [String: String] = [
        "html": "text/html", "css": "text/css", "js": "text/javascript", "mjs": "text/javascript",
        "json": "application/json", "png": "image/png", "jpg": "image/jpeg", "svg": "image/svg+xml",
        "woff2": "font/woff2", "mp4": "video/mp4", "webm": "video/webm", "txt": "text/plain",
    ]

    /// Answers from the directory, or passes.
    public func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
    {
        let decoded = request.path.removingPercentEncoding ?? request.path
        let parts = decoded.split(separator: "/")
        guard !parts.contains(where: { $0 == ".." || $0.hasPrefix(".") }) else { return .passed }
        var url = root
        for part in parts { url.appendPathComponent(String(part)) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            url.appendPathComponent("index.html")
        }
        guard let file = FileHandle(forReadingAtPath: url.path) else { return .passed }
        defer { try? file.close() }
        let size = Int64(try file.seekToEnd())
        let mime = Self.types[url.pathExtension.lowercased()] ?? "application/octet-stream"
        var start: Int64 = 0
        var end = size - 1
        var status: HTTPResponse.Status = .ok
        var fields: HTTPFields = [.acceptRanges: "bytes"]
        if let range = request.headerFields[.range], let parsed = Self.parse(range, size: size) {
            guard let (first, last) = parsed else {
                fields[.contentRange] = "bytes */\(size)"
                try await writer.respond(
                    SchemeResponse(status: .rangeNotSatisfiable, headerFields: fields), body: Data())
                return .handled
            }
            (start, end, status) = (first, last, .partialContent)
            fields[.contentRange] = "bytes \(first)-\(last)/\(size)"
        }
        let length = max(0, end - start + 1)
        try await writer.writeHead(
            SchemeResponse(status: status, headerFields: fields, mimeType: mime, expectedContentLength: length))
        if request.method == .head { return .handled }
        try file.seek(toOffset: UInt64(start))
        var remaining = length
        while remaining > 0 {
            try Task.checkCancellation()
            let chunk = try file.read(upToCount: Int(min(remaining, 64 << 10))) ?? Data()
            if chunk.isEmpty { break }
            try await writer.write(chunk)
            remaining -= Int64(chunk.count)
        }
        try await writer.finish()
        return .handled
    }

    /// `nil`: ignore the header; `.some(nil)`: unsatisfiable; otherwise the inclusive bounds.
    static func parse(_ header: String, size: Int64) -> (Int64, Int64)?? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        if spec[0].isEmpty {
            guard let suffix = Int64(spec[1]), suffix > 0 else { return nil }
            return .some((max(0, size - suffix), size - 1))
        }
        guard let first = Int64(spec[0]) else { return nil }
        let last = spec[1].isEmpty ? size - 1 : min(Int64(spec[1]) ?? -1, size - 1)
        guard first < size, last >= first else { return .some(nil) }
        return .some((first, last))
    }
}
