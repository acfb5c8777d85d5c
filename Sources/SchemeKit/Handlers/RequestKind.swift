import HTTPTypes

/// What a request is for, as hybrid apps route it: the page, its code and styles, images, media.
///
/// Decided from the `Accept` header first (engines send `text/html` for documents and
/// `image/*` for `<img>`), then from the path's extension.
public struct RequestKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The kind's name.
    public let rawValue: String

    /// Creates a kind from its name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An HTML document (a navigation, an iframe).
    public static let document = RequestKind(rawValue: "document")
    /// JavaScript, CSS, WebAssembly, source maps.
    public static let scriptOrStyle = RequestKind(rawValue: "script-or-style")
    /// An image.
    public static let image = RequestKind(rawValue: "image")
    /// Audio or video.
    public static let media = RequestKind(rawValue: "media")
    /// Anything else: JSON, fonts, data.
    public static let other = RequestKind(rawValue: "other")

    /// The name.
    public var description: String { rawValue }

    static let documentExtensions: Set<String> = ["html", "htm", "xhtml", "shtml"]
    static let scriptOrStyleExtensions: Set<String> = ["js", "mjs", "cjs", "css", "wasm", "map"]
    static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "webp", "avif", "bmp", "ico", "svg", "apng", "jxl", "heic", "heif", "tif", "tiff",
    ]
    static let mediaExtensions: Set<String> = [
        "mp4", "m4v", "webm", "ogv", "mov", "mp3", "m4a", "aac", "ogg", "oga", "opus", "wav", "flac", "m3u8", "ts",
    ]

    /// The kind of `request`.
    public static func of(_ request: SchemeRequest) -> RequestKind {
        let ext = request.pathExtension
        if !ext.isEmpty {
            if imageExtensions.contains(ext) { return .image }
            if scriptOrStyleExtensions.contains(ext) { return .scriptOrStyle }
            if mediaExtensions.contains(ext) { return .media }
            if documentExtensions.contains(ext) { return .document }
        }
        let accept = request.headerFields[.accept]?.lowercased() ?? ""
        if accept.hasPrefix("text/html") || accept.hasPrefix("application/xhtml") { return .document }
        if accept.hasPrefix("image/") { return .image }
        if accept.hasPrefix("text/css") || accept.contains("javascript") { return .scriptOrStyle }
        if accept.hasPrefix("video/") || accept.hasPrefix("audio/") { return .media }
        if ext.isEmpty, request.path.hasSuffix("/") { return .document }
        return .other
    }
}
