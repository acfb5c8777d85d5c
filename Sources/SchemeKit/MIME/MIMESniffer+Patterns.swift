extension MIMESniffer {
    /// HTML tags the standard sniffs (uppercase; letters match case-insensitively), each followed
    /// by a tag-terminating byte (space or `>`).
    private static let htmlPatterns: [[UInt8]] = [
        "<!DOCTYPE HTML", "<HTML", "<HEAD", "<SCRIPT", "<IFRAME", "<H1", "<DIV", "<FONT", "<TABLE", "<A",
        "<STYLE", "<TITLE", "<B", "<BODY", "<BR", "<P", "<!--",
    ].map { Array($0.utf8) }

    /// The standard's whitespace bytes: tab, line feed, form feed, carriage return, space.
    private static func isWhitespaceByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D || byte == 0x20
    }

    /// HTML, XML or PDF (§7.1 step 1), or `nil`.
    static func scriptableType(_ bytes: UnsafeRawBufferPointer) -> String? {
        var start = 0
        while start < bytes.count, isWhitespaceByte(bytes[start]) { start += 1 }
        for pattern in htmlPatterns {
            let end = start + pattern.count
            guard end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x3E else { continue }
            let matched = zip(bytes[start..<end], pattern).allSatisfy { byte, expected in
                expected >= UInt8(ascii: "A") && expected <= UInt8(ascii: "Z")
                    ? byte & 0xDF == expected : byte == expected
            }
            if matched { return "text/html" }
        }
        if matches(bytes, at: start, "<?xml".utf8) { return "application/xml" }
        if matches(bytes, at: 0, "%PDF-".utf8) { return "application/pdf" }
        return nil
    }

    /// The image type pattern matching algorithm (§6.1), plus AVIF/HEIC/HEIF by `ftyp` brand.
    static func imageType(_ bytes: UnsafeRawBufferPointer) -> String? {
        if matches(bytes, at: 0, [0x00, 0x00, 0x01, 0x00]) || matches(bytes, at: 0, [0x00, 0x00, 0x02, 0x00]) {
            return "image/x-icon"
        }
        if matches(bytes, at: 0, "BM".utf8) { return "image/bmp" }
        if matches(bytes, at: 0, "GIF87a".utf8) || matches(bytes, at: 0, "GIF89a".utf8) { return "image/gif" }
        if matches(bytes, at: 0, "RIFF".utf8), matches(bytes, at: 8, "WEBPVP".utf8) { return "image/webp" }
        if matches(bytes, at: 0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if matches(bytes, at: 0, [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        return imageFileType(bytes)
    }

    /// The audio or video type pattern matching algorithm (§6.2).
    static func audioOrVideoType(_ bytes: UnsafeRawBufferPointer) -> String? {
        if matches(bytes, at: 0, "FORM".utf8), matches(bytes, at: 8, "AIFF".utf8) { return "audio/aiff" }
        if matches(bytes, at: 0, "ID3".utf8) { return "audio/mpeg" }
        if matches(bytes, at: 0, [0x4F, 0x67, 0x67, 0x53, 0x00]) { return oggType(bytes) }
        if matches(bytes, at: 0, [0x4D, 0x54, 0x68, 0x64, 0x00, 0x00, 0x00, 0x06]) { return "audio/midi" }
        if matches(bytes, at: 0, "RIFF".utf8), matches(bytes, at: 8, "AVI ".utf8) { return "video/x-msvideo" }
        if matches(bytes, at: 0, "RIFF".utf8), matches(bytes, at: 8, "WAVE".utf8) { return "audio/wav" }
        if matchesMP4(bytes) { return "video/mp4" }
        if let type = ebmlType(bytes) { return type }
        if matchesMP3WithoutID3(bytes) { return "audio/mpeg" }
        return nil
    }

    /// The archive type pattern matching algorithm (§6.4), with RAR 5 added.
    static func archiveType(_ bytes: UnsafeRawBufferPointer) -> String? {
        if matches(bytes, at: 0, [0x1F, 0x8B, 0x08]) { return "application/gzip" }
        if matches(bytes, at: 0, [0x50, 0x4B, 0x03, 0x04]) { return "application/zip" }
        if matches(bytes, at: 0, [0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x00])
            || matches(bytes, at: 0, [0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x01, 0x00])
        {
            return "application/vnd.rar"
        }
        return nil
    }

    /// The font type pattern matching algorithm (§6.3).
    static func fontType(_ bytes: UnsafeRawBufferPointer) -> String? {
        if matches(bytes, at: 0, "wOFF".utf8) { return "font/woff" }
        if matches(bytes, at: 0, "wOF2".utf8) { return "font/woff2" }
        if matches(bytes, at: 0, [0x00, 0x01, 0x00, 0x00]) { return "font/ttf" }
        if matches(bytes, at: 0, "OTTO".utf8) { return "font/otf" }
        if matches(bytes, at: 0, "ttcf".utf8) { return "font/collection" }
        if matches(bytes, at: 34, "LP".utf8) { return "application/vnd.ms-fontobject" }
        return nil
    }

    /// An Ogg stream's type from the codec of its first packet: `audio/ogg` for Vorbis, Opus,
    /// FLAC and Speex, `video/ogg` for Theora, else `application/ogg` (the standard's answer).
    private static func oggType(_ bytes: UnsafeRawBufferPointer) -> String {
        // Page header: 27 bytes, the last being the number of segments; then the segment table.
        guard bytes.count > 27 else { return "application/ogg" }
        let packet = 27 + Int(bytes[26])
        if matches(bytes, at: packet, [0x01] + Array("vorbis".utf8)) || matches(bytes, at: packet, "OpusHead".utf8)
            || matches(bytes, at: packet, [0x7F] + Array("FLAC".utf8)) || matches(bytes, at: packet, "Speex   ".utf8)
        {
            return "audio/ogg"
        }
        if matches(bytes, at: packet, [0x80] + Array("theora".utf8)) { return "video/ogg" }
        return "application/ogg"
    }
}
