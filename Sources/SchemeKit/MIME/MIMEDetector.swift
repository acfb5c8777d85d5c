public import Foundation

/// Decides a response's MIME type: by extension first, then by sniffing the first bytes.
///
/// PLACEHOLDER API (the MIME work fills in the generated table and the WHATWG sniffer; the
/// signatures below are the contract other handlers use).
public struct MIMEDetector: Sendable {
    /// Creates a detector with the built-in table.
    public init() {}

    /// The MIME type for a file extension (case-insensitive, without the dot), or `nil` when unknown.
    public func mimeType(forExtension ext: String) -> String? {
        switch ext.lowercased() {
        case "html", "htm": "text/html"
        case "js", "mjs": "text/javascript"
        case "css": "text/css"
        case "json": "application/json"
        case "png": "image/png"
        case "txt": "text/plain"
        default: nil
        }
    }

    /// The MIME type sniffed from a resource's first bytes (up to 1445 are used).
    public func sniff(_ bytes: Data) -> String {
        "application/octet-stream"
    }

    /// The `Content-Type` decision for a path: extension first, then `leadingBytes` (when given).
    ///
    /// - Returns: The MIME type and the charset to declare (`utf-8` for text types, else `nil`).
    public func contentType(forPath path: String, leadingBytes: Data? = nil) -> (mimeType: String, charset: String?) {
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        let ext = name.split(separator: ".", omittingEmptySubsequences: false).count > 1
            ? String(name.split(separator: ".").last ?? "") : ""
        let mime = mimeType(forExtension: ext) ?? leadingBytes.map(sniff) ?? "application/octet-stream"
        return (mime, mime.hasPrefix("text/") || mime == "application/json" ? "utf-8" : nil)
    }
}
