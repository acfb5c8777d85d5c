extension SchemeRequest {
    /// The path every decision about the request is made on — its route, header rules, the
    /// single-page fallback, the dotfile check — which is the path the file handler serves: percent-
    /// decoded once, empty segments dropped (`//x` is `/x`), a trailing `/` kept (see
    /// ``SafeRelativePath``). A path ``SafeRelativePath`` refuses (`..`, an encoded separator) is
    /// returned as it is: the file handler refuses it (403) whatever else decides.
    ///
    /// A path with none of `//`, `/.`, `%` or `\` is already normalised and returned as it is,
    /// without decoding: what browsers send costs one scan.
    package var normalizedPath: String { Self.normalize(path: path) }

    /// ``normalizedPath`` for a percent-encoded absolute path (no query).
    package static func normalize(path: String) -> String {
        var path = path
        let plain = path.withUTF8 { bytes -> Bool in
            var previous: UInt8 = 0
            for byte in bytes {
                if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "\\") { return false }
                if previous == UInt8(ascii: "/"), byte == UInt8(ascii: "/") || byte == UInt8(ascii: ".") {
                    return false
                }
                previous = byte
            }
            return true
        }
        guard !plain else { return path }
        guard let safe = try? SafeRelativePath(percentEncodedPath: path) else { return path }
        let decoded = safe.decodedPath
        return safe.hasTrailingSlash && decoded != "/" ? decoded + "/" : decoded
    }
}
