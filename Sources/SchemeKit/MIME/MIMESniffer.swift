public import Foundation

/// Content sniffing: the MIME type of a resource from its first bytes, following the WHATWG
/// [MIME Sniffing standard](https://mimesniff.spec.whatwg.org/)'s *rules for identifying an
/// unknown MIME type* (§7.1).
///
/// Only the first `resourceHeaderLength` (1445) bytes are read. In order:
/// 1. when ``sniffsScriptableTypes`` is set, HTML (`<!DOCTYPE HTML`, `<html`, `<script`, `<!--`, …,
///    after leading whitespace, case-insensitive, followed by a space or `>`), XML (`<?xml`) and PDF;
/// 2. PostScript, and byte order marks (UTF-8, UTF-16BE, UTF-16LE → `text/plain` with that charset);
/// 3. images: ICO/CUR, BMP, GIF87a/89a, WebP, PNG, JPEG;
/// 4. audio and video: AIFF, ID3-tagged MP3, Ogg, MIDI, AVI, WAVE, MP4 (the `ftyp` box algorithm),
///    WebM (the EBML algorithm), MP3 without ID3 (two consecutive frame headers);
/// 5. archives: GZIP, ZIP, RAR;
/// 6. fonts (the standard's font table): WOFF, WOFF2, TrueType, OpenType, collections, EOT;
/// 7. otherwise `text/plain` when no *binary data byte* (0x00–0x08, 0x0B, 0x0E–0x1A, 0x1C–0x1F)
///    occurs, else `application/octet-stream`. Unknown binary data is therefore never `text/html`.
///
/// Where this differs from the standard, on purpose:
/// - Names agree with SchemeKit's extension table, so a file sniffs to the type its extension
///   gives: `application/xml` (standard: `text/xml`), `application/gzip` (`application/x-gzip`),
///   `application/vnd.rar` (`application/x-rar-compressed`), `audio/wav` (`audio/wave`),
///   `video/x-msvideo` (`video/avi`).
/// - Additions: AVIF/HEIC/HEIF by their `ftyp` brands (`image/avif`, `image/heic`, `image/heif`);
///   RAR 5 as well as RAR 4; a Matroska EBML doc type (`video/x-matroska`); Ogg refined to
///   `audio/ogg` (Vorbis, Opus, FLAC, Speex) or `video/ogg` (Theora), else `application/ogg`.
/// - Font signatures (which the standard applies only where a font is expected) match only when
///   the header also holds a binary data byte, so a text file that starts with `OTTO` stays text.
/// - MP3 without ID3 uses the MPEG audio header layout (MPEG-1 rates and 144 samples-scale for
///   version bits `11`, the next frame at the computed frame size), fixing the standard's known
///   errata in that section.
///
/// ```swift
/// let sniffer = MIMESniffer()
/// sniffer.sniff(Data("<!doctype html><p>hi".utf8)).essence   // "text/html"
/// sniffer.sniff(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])).essence  // "image/png"
/// ```
public struct MIMESniffer: Sendable {
    /// The most bytes sniffing reads: the standard's *resource header* size, 1445.
    package static let resourceHeaderLength = 1445

    /// Whether HTML, XML and PDF (types that can run script) may be sniffed. Default: `true`, as
    /// for a resource served without `X-Content-Type-Options: nosniff`.
    public var sniffsScriptableTypes: Bool

    /// Creates a sniffer.
    ///
    /// - Parameter sniffsScriptableTypes: Whether HTML, XML and PDF may be sniffed. Default: `true`.
    public init(sniffsScriptableTypes: Bool = true) {
        self.sniffsScriptableTypes = sniffsScriptableTypes
    }

    /// The media type sniffed from `bytes` (only the first 1445 are read).
    ///
    /// - Returns: The sniffed type; `text/plain` found through a byte order mark carries its
    ///   `charset` (`utf-8`, `utf-16be` or `utf-16le`). Empty input is `text/plain`.
    public func sniff(_ bytes: Data) -> MediaType {
        let result = bytes.withUnsafeBytes { classify($0) }
        let slash = result.mimeType.firstIndex(of: "/")!
        var parameters: [MediaType.Parameter] = []
        if let charset = result.charset { parameters.append(.init(name: "charset", value: charset)) }
        return MediaType(
            type: String(result.mimeType[..<slash]),
            subtype: String(result.mimeType[result.mimeType.index(after: slash)...]),
            parameters: parameters
        )
    }

    /// What sniffing found: a MIME type essence and, for byte-order-marked text, its charset.
    struct Result: Equatable {
        /// The MIME type essence, such as `image/png`.
        var mimeType: String
        /// The charset named by a byte order mark, else `nil`.
        var charset: String? = nil
    }

    /// Runs the sniffing rules on the first ``resourceHeaderLength`` bytes of `buffer`.
    func classify(_ buffer: UnsafeRawBufferPointer) -> Result {
        let header = UnsafeRawBufferPointer(rebasing: buffer.prefix(Self.resourceHeaderLength))
        if sniffsScriptableTypes, let type = Self.scriptableType(header) { return Result(mimeType: type) }
        if header.starts(with: "%!PS-Adobe-".utf8) { return Result(mimeType: "application/postscript") }
        if let charset = Self.byteOrderMarkCharset(header) { return Result(mimeType: "text/plain", charset: charset) }
        let binary = Self.containsBinaryDataByte(header)
        if let type = Self.imageType(header) ?? Self.audioOrVideoType(header) ?? Self.archiveType(header) {
            return Result(mimeType: type)
        }
        if binary, let type = Self.fontType(header) { return Result(mimeType: type) }
        return Result(mimeType: binary ? "application/octet-stream" : "text/plain")
    }
}

// MARK: - Byte helpers

extension MIMESniffer {
    /// Whether `pattern` occurs in `bytes` at `offset`.
    static func matches(_ bytes: UnsafeRawBufferPointer, at offset: Int, _ pattern: some Collection<UInt8>) -> Bool {
        guard offset >= 0, bytes.count - offset >= pattern.count else { return false }
        return bytes[offset..<(offset + pattern.count)].elementsEqual(pattern)
    }

    /// The standard's binary data bytes: 0x00–0x08, 0x0B, 0x0E–0x1A, 0x1C–0x1F.
    static func isBinaryDataByte(_ byte: UInt8) -> Bool {
        // Bit n of the mask is set when byte n (below 0x20) is a binary data byte.
        byte < 0x20 && (0xF7FF_C9FF as UInt32) >> byte & 1 == 1
    }

    /// Whether any byte of `bytes` is a binary data byte.
    static func containsBinaryDataByte(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.contains(where: isBinaryDataByte)
    }

    /// The charset a byte order mark at the start of `bytes` names, or `nil` when there is none.
    static func byteOrderMarkCharset(_ bytes: UnsafeRawBufferPointer) -> String? {
        if matches(bytes, at: 0, [0xEF, 0xBB, 0xBF]) { return "utf-8" }
        if matches(bytes, at: 0, [0xFE, 0xFF]) { return "utf-16be" }
        if matches(bytes, at: 0, [0xFF, 0xFE]) { return "utf-16le" }
        return nil
    }

    /// Whether `bytes` is valid UTF-8, allowing a sequence cut off at the end (the bytes are
    /// usually a prefix of a longer resource).
    static func isValidUTF8Prefix(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return false
            }
            for offset in 1..<length {
                guard index + offset < count else { return true }
                let byte = bytes[index + offset]
                if offset == 1 ? !(low...high).contains(byte) : byte & 0xC0 != 0x80 { return false }
            }
            index += length
        }
        return true
    }
}
