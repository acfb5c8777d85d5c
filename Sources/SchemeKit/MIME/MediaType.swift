/// A media type (MIME type) such as `text/html; charset=utf-8`: a type, a subtype and parameters.
///
/// Media types are an open set, so this is a `RawRepresentable` struct with static constants for
/// common web types rather than an enum. Parsing follows the WHATWG MIME Sniffing standard's
/// [parse a MIME type](https://mimesniff.spec.whatwg.org/#parse-a-mime-type) algorithm (the
/// grammar of [RFC 9110 §8.3.1](https://www.rfc-editor.org/rfc/rfc9110#section-8.3.1), applied
/// leniently): the type and subtype must be non-empty tokens; malformed parameters are skipped;
/// the first of two parameters with the same name wins.
///
/// Comparison is case-insensitive where the standards say so: the type, the subtype, parameter
/// names and the `charset` value are stored lowercased. Other parameter values keep their case,
/// and parameters compare in order.
///
/// ```swift
/// let type = MediaType(rawValue: "Text/HTML; Charset=\"UTF-8\"")!
/// type.essence      // "text/html"
/// type.charset      // "utf-8"
/// type.rawValue     // "text/html; charset=utf-8"
/// type.isText       // true
/// ```
public struct MediaType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// One `name=value` parameter of a media type.
    public struct Parameter: Hashable, Sendable {
        /// The parameter name, lowercased (`charset`).
        public let name: String
        /// The parameter value, unquoted (`utf-8`). Lowercased when the name is `charset`.
        public let value: String

        /// Creates a parameter; the name is lowercased, and so is the value of `charset`.
        public init(name: String, value: String) {
            self.name = name.lowercased()
            self.value = self.name == "charset" ? value.lowercased() : value
        }
    }

    /// The top-level type, lowercased: `text` in `text/html`.
    public let type: String
    /// The subtype, lowercased: `html` in `text/html`.
    public let subtype: String
    /// The parameters, in order. Set them with ``settingParameter(_:to:)``.
    public private(set) var parameters: [Parameter]

    /// Creates a media type from its parts; `type` and `subtype` are lowercased.
    ///
    /// The parts are not validated: pass HTTP tokens (RFC 9110 §5.6.2), or ``rawValue`` may not
    /// parse back. Use ``init(rawValue:)`` for text from outside the program.
    public init(type: String, subtype: String, parameters: [Parameter] = []) {
        self.type = type.lowercased()
        self.subtype = subtype.lowercased()
        self.parameters = parameters
    }

    /// Parses a media type such as `text/html; charset=utf-8`, or returns `nil` when the type or
    /// subtype is missing or not a token.
    ///
    /// Leading and trailing whitespace is ignored; parameters that are malformed (no `=`, an empty
    /// or non-token name, an empty value) are skipped, as WHATWG's parser does.
    public init?(rawValue: String) {
        guard let parsed = Self.parse(rawValue) else { return nil }
        self = parsed
    }

    /// The serialised form: `type/subtype` followed by `; name=value` for each parameter, with
    /// values quoted when they are not tokens.
    public var rawValue: String {
        var result = essence
        for parameter in parameters {
            result += "; \(parameter.name)="
            result += Self.serialize(value: parameter.value)
        }
        return result
    }

    /// The serialised form; see ``rawValue``.
    public var description: String { rawValue }

    /// The type and subtype without parameters: `text/html`.
    public var essence: String { "\(type)/\(subtype)" }

    /// The value of the parameter called `name` (case-insensitive), or `nil`.
    public subscript(parameter name: String) -> String? {
        let name = name.lowercased()
        return parameters.first { $0.name == name }?.value
    }

    /// The `charset` parameter, lowercased, or `nil` when there is none.
    public var charset: String? { self[parameter: "charset"] }

    /// A copy with the parameter `name` set to `value` (replacing an existing one in place), or
    /// removed when `value` is `nil`.
    public func settingParameter(_ name: String, to value: String?) -> MediaType {
        var copy = self
        let name = name.lowercased()
        if let value {
            let parameter = Parameter(name: name, value: value)
            if let index = copy.parameters.firstIndex(where: { $0.name == name }) {
                copy.parameters[index] = parameter
            } else {
                copy.parameters.append(parameter)
            }
        } else {
            copy.parameters.removeAll { $0.name == name }
        }
        return copy
    }

    /// A copy with the `charset` parameter set to `charset`, or removed when it is `nil`.
    package func withCharset(_ charset: String?) -> MediaType {
        settingParameter("charset", to: charset)
    }

    /// A copy without parameters.
    package var withoutParameters: MediaType { MediaType(type: type, subtype: subtype) }

    /// Whether the type is textual, so a `charset` belongs on it.
    ///
    /// True for `text/*`; for JSON, JavaScript and XML types, including every structured-syntax
    /// suffix `+json`, `+xml` and `+yaml` (so `image/svg+xml` and `application/manifest+json`);
    /// and for a few textual application types: YAML, TOML, SQL, shell scripts, XML DTDs and HLS
    /// playlists.
    public var isText: Bool { Self.isText(type: type, subtype: subtype) }

    /// Whether this type matches `pattern`, where the pattern's type or subtype may be `*`
    /// (`*/*`, `image/*`). Parameters are ignored.
    public func matches(_ pattern: MediaType) -> Bool {
        (pattern.type == "*" || pattern.type == type) && (pattern.subtype == "*" || pattern.subtype == subtype)
    }

    /// The text rule of ``isText`` on a lowercase type and subtype.
    static func isText(type: some StringProtocol, subtype: some StringProtocol) -> Bool {
        if type == "text" { return true }
        if subtype.hasSuffix("+json") || subtype.hasSuffix("+xml") || subtype.hasSuffix("+yaml") { return true }
        guard type == "application" else { return false }
        switch subtype {
        case "json", "javascript", "ecmascript", "x-javascript", "xml", "xml-dtd", "yaml", "toml", "sql", "x-sh",
            "vnd.apple.mpegurl", "x-mpegurl":
            return true
        default:
            return false
        }
    }

    /// The text rule of ``isText`` on an essence such as `image/svg+xml` (any case).
    static func isText(essence: String) -> Bool {
        let lowered = essence.lowercased()
        guard let slash = lowered.firstIndex(of: "/") else { return false }
        return isText(type: lowered[..<slash], subtype: lowered[lowered.index(after: slash)...])
    }
}

extension MediaType {
    /// `text/html`.
    package static let html = MediaType(type: "text", subtype: "html")
    /// `text/css`.
    package static let css = MediaType(type: "text", subtype: "css")
    /// `text/javascript`, the one JavaScript type (RFC 9239), for classic scripts and modules.
    package static let javascript = MediaType(type: "text", subtype: "javascript")
    /// `text/plain`.
    package static let plainText = MediaType(type: "text", subtype: "plain")
    /// `text/markdown`.
    package static let markdown = MediaType(type: "text", subtype: "markdown")
    /// `text/csv`.
    package static let csv = MediaType(type: "text", subtype: "csv")
    /// `text/event-stream` (server-sent events).
    package static let eventStream = MediaType(type: "text", subtype: "event-stream")
    /// `application/json`.
    package static let json = MediaType(type: "application", subtype: "json")
    /// `application/xml`.
    package static let xml = MediaType(type: "application", subtype: "xml")
    /// `application/xhtml+xml`.
    package static let xhtml = MediaType(type: "application", subtype: "xhtml+xml")
    /// `application/wasm`, required by `WebAssembly.instantiateStreaming`.
    package static let wasm = MediaType(type: "application", subtype: "wasm")
    /// `application/manifest+json`, the web app manifest.
    package static let webManifest = MediaType(type: "application", subtype: "manifest+json")
    /// `application/pdf`.
    package static let pdf = MediaType(type: "application", subtype: "pdf")
    /// `application/postscript`.
    package static let postscript = MediaType(type: "application", subtype: "postscript")
    /// `application/octet-stream`: arbitrary binary data, the answer when nothing else is known.
    package static let octetStream = MediaType(type: "application", subtype: "octet-stream")
    /// `application/zip`.
    package static let zip = MediaType(type: "application", subtype: "zip")
    /// `application/gzip` (RFC 6713).
    package static let gzip = MediaType(type: "application", subtype: "gzip")
    /// `application/vnd.rar`.
    package static let rar = MediaType(type: "application", subtype: "vnd.rar")
    /// `application/x-www-form-urlencoded`.
    package static let formURLEncoded = MediaType(type: "application", subtype: "x-www-form-urlencoded")
    /// `multipart/form-data`.
    package static let multipartFormData = MediaType(type: "multipart", subtype: "form-data")
    /// `image/png`.
    package static let png = MediaType(type: "image", subtype: "png")
    /// `image/jpeg`.
    package static let jpeg = MediaType(type: "image", subtype: "jpeg")
    /// `image/gif`.
    package static let gif = MediaType(type: "image", subtype: "gif")
    /// `image/webp`.
    package static let webp = MediaType(type: "image", subtype: "webp")
    /// `image/avif`.
    package static let avif = MediaType(type: "image", subtype: "avif")
    /// `image/svg+xml`.
    package static let svg = MediaType(type: "image", subtype: "svg+xml")
    /// `image/bmp`.
    package static let bmp = MediaType(type: "image", subtype: "bmp")
    /// `image/x-icon`, the name the WHATWG sniffing standard uses for ICO and CUR files.
    package static let icon = MediaType(type: "image", subtype: "x-icon")
    /// `font/woff`.
    package static let woff = MediaType(type: "font", subtype: "woff")
    /// `font/woff2`.
    package static let woff2 = MediaType(type: "font", subtype: "woff2")
    /// `font/ttf`.
    package static let ttf = MediaType(type: "font", subtype: "ttf")
    /// `font/otf`.
    package static let otf = MediaType(type: "font", subtype: "otf")
    /// `font/collection` (TrueType/OpenType collections, `.ttc`).
    package static let fontCollection = MediaType(type: "font", subtype: "collection")
    /// `video/mp4`.
    package static let mp4 = MediaType(type: "video", subtype: "mp4")
    /// `video/webm`.
    package static let webm = MediaType(type: "video", subtype: "webm")
    /// `video/mp2t` (MPEG transport stream, HLS segments).
    package static let mpegTS = MediaType(type: "video", subtype: "mp2t")
    /// `application/vnd.apple.mpegurl` (HLS playlists, RFC 8216).
    package static let hlsPlaylist = MediaType(type: "application", subtype: "vnd.apple.mpegurl")
    /// `audio/mpeg` (MP3).
    package static let mpegAudio = MediaType(type: "audio", subtype: "mpeg")
    /// `audio/ogg`.
    package static let oggAudio = MediaType(type: "audio", subtype: "ogg")
    /// `audio/wav`.
    package static let wav = MediaType(type: "audio", subtype: "wav")
}
