import Foundation
import Testing

@testable import SchemeKit

struct MIMESnifferTests {
    struct SniffCase: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: Data
        let expected: String
        /// The extension whose table type must equal the sniffed type, when the format has one.
        var canonicalExtension: String? = nil
        var testDescription: String { name }
    }

    static let sniffer = MIMESniffer()
    static let detector = MIMEDetector()

    static func text(_ string: String) -> Data { Data(string.utf8) }

    // MARK: Scriptable types, PostScript, BOMs

    static let markupCases: [SniffCase] = [
        .init(
            name: "doctype", bytes: text("<!DOCTYPE html>\n<html>"), expected: "text/html", canonicalExtension: "html"),
        .init(name: "doctype lowercase", bytes: text("<!doctype html>"), expected: "text/html"),
        .init(name: "leading whitespace", bytes: text(" \t\r\n\u{0C}<HTML><body>"), expected: "text/html"),
        .init(name: "head", bytes: text("<head>"), expected: "text/html"),
        .init(name: "script", bytes: text("<script src=x>"), expected: "text/html"),
        .init(name: "iframe", bytes: text("<IFRAME src=x>"), expected: "text/html"),
        .init(name: "h1", bytes: text("<h1>Title"), expected: "text/html"),
        .init(name: "div", bytes: text("<div class=a>"), expected: "text/html"),
        .init(name: "font", bytes: text("<font>"), expected: "text/html"),
        .init(name: "table", bytes: text("<table>"), expected: "text/html"),
        .init(name: "a", bytes: text("<a href=x>"), expected: "text/html"),
        .init(name: "style", bytes: text("<style>"), expected: "text/html"),
        .init(name: "title", bytes: text("<title>x"), expected: "text/html"),
        .init(name: "b", bytes: text("<b>bold"), expected: "text/html"),
        .init(name: "body", bytes: text("<body>"), expected: "text/html"),
        .init(name: "br", bytes: text("<br>"), expected: "text/html"),
        .init(name: "p", bytes: text("<p>para"), expected: "text/html"),
        .init(name: "comment", bytes: text("<!-- c -->"), expected: "text/html"),
        .init(name: "tag not terminated", bytes: text("<htmlx>"), expected: "text/plain"),
        .init(name: "tag at end of input", bytes: text("<p"), expected: "text/plain"),
        .init(name: "tag after text", bytes: text("hello <html>"), expected: "text/plain"),
        .init(
            name: "xml", bytes: text("<?xml version=\"1.0\"?><r/>"), expected: "application/xml",
            canonicalExtension: "xml"),
        .init(name: "xml after whitespace", bytes: text("\n <?xml version=\"1.0\"?>"), expected: "application/xml"),
        .init(name: "xml is case-sensitive", bytes: text("<?XML version=\"1.0\"?>"), expected: "text/plain"),
        .init(
            name: "pdf", bytes: text("%PDF-1.7\n%\u{E2}\u{E3}"), expected: "application/pdf", canonicalExtension: "pdf"),
        .init(name: "pdf not after whitespace", bytes: text(" %PDF-1.7"), expected: "text/plain"),
        .init(
            name: "postscript", bytes: text("%!PS-Adobe-3.0\n"), expected: "application/postscript",
            canonicalExtension: "ps"),
        .init(name: "utf-8 bom", bytes: ByteBuilder().raw(0xEF, 0xBB, 0xBF).ascii("hi").data, expected: "text/plain"),
        .init(name: "utf-16be bom", bytes: ByteBuilder().raw(0xFE, 0xFF, 0x00, 0x68).data, expected: "text/plain"),
        .init(name: "utf-16le bom", bytes: ByteBuilder().raw(0xFF, 0xFE, 0x68, 0x00).data, expected: "text/plain"),
        .init(
            name: "utf-16le without bom", bytes: ByteBuilder().raw(0x68, 0x00, 0x69, 0x00).data,
            expected: "application/octet-stream"),
    ]

    // MARK: Images

    static let imageCases: [SniffCase] = [
        .init(
            name: "ico", bytes: ByteBuilder().raw(0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0).data,
            expected: "image/x-icon", canonicalExtension: "ico"),
        .init(
            name: "cur", bytes: ByteBuilder().raw(0, 0, 2, 0, 1, 0, 32, 32, 0, 0).data,
            expected: "image/x-icon", canonicalExtension: "cur"),
        .init(
            name: "bmp", bytes: ByteBuilder().ascii("BM").raw(0x3A, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0).data,
            expected: "image/bmp", canonicalExtension: "bmp"),
        .init(
            name: "gif87a", bytes: ByteBuilder().ascii("GIF87a").raw(1, 0, 1, 0, 0x80, 0, 0).data,
            expected: "image/gif", canonicalExtension: "gif"),
        .init(
            name: "gif89a", bytes: ByteBuilder().ascii("GIF89a").raw(1, 0, 1, 0, 0x80, 0, 0).data,
            expected: "image/gif", canonicalExtension: "gif"),
        .init(
            name: "webp lossy",
            bytes: ByteBuilder().ascii("RIFF").raw(0x24, 0, 0, 0).ascii("WEBPVP8 ").raw(0x18, 0, 0, 0).data,
            expected: "image/webp", canonicalExtension: "webp"),
        .init(
            name: "webp lossless", bytes: ByteBuilder().ascii("RIFF").raw(0x1A, 0, 0, 0).ascii("WEBPVP8L").data,
            expected: "image/webp"),
        .init(
            name: "png",
            bytes: ByteBuilder().raw(0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D)
                .ascii("IHDR").data, expected: "image/png", canonicalExtension: "png"),
        .init(
            name: "jpeg jfif", bytes: ByteBuilder().raw(0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10).ascii("JFIF").raw(0).data,
            expected: "image/jpeg", canonicalExtension: "jpg"),
        .init(
            name: "jpeg exif",
            bytes: ByteBuilder().raw(0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x10).ascii("Exif").raw(0, 0).data,
            expected: "image/jpeg"),
        .init(
            name: "avif",
            bytes: ByteBuilder().raw(0, 0, 0, 0x1C).ascii("ftypavif").raw(0, 0, 0, 0)
                .ascii("avifmif1miaf").data, expected: "image/avif", canonicalExtension: "avif"),
        .init(
            name: "heic",
            bytes: ByteBuilder().raw(0, 0, 0, 0x18).ascii("ftypheic").raw(0, 0, 0, 0)
                .ascii("mif1heic").data, expected: "image/heic", canonicalExtension: "heic"),
    ]

    // MARK: Audio and video

    static func oggPage(_ packet: ByteBuilder) -> Data {
        ByteBuilder().ascii("OggS").raw(0, 0x02).repeating(0, count: 20).raw(1, 30).data + packet.data
    }

    /// An MPEG-1 Layer III frame header: 128 kbit/s, 44.1 kHz, no padding (417-byte frames).
    static let mp3FrameHeader: [UInt8] = [0xFF, 0xFB, 0x90, 0x64]

    static let mediaCases: [SniffCase] = [
        .init(
            name: "aiff", bytes: ByteBuilder().ascii("FORM").raw(0, 0, 0, 0x2E).ascii("AIFFCOMM").data,
            expected: "audio/aiff", canonicalExtension: "aiff"),
        .init(
            name: "mp3 with id3", bytes: ByteBuilder().ascii("ID3").raw(4, 0, 0, 0, 0, 0, 0x23).data,
            expected: "audio/mpeg", canonicalExtension: "mp3"),
        .init(
            name: "mp3 without id3",
            bytes: ByteBuilder().raw(0xFF, 0xFB, 0x90, 0x64).repeating(0, count: 413).raw(0xFF, 0xFB, 0x90, 0x64).data,
            expected: "audio/mpeg", canonicalExtension: "mp3"),
        .init(
            name: "mp3 frame with no second frame",
            bytes: ByteBuilder().raw(0xFF, 0xFB, 0x90, 0x64).repeating(0, count: 500).data,
            expected: "application/octet-stream"),
        .init(
            name: "ogg vorbis", bytes: oggPage(ByteBuilder().raw(1).ascii("vorbis").raw(0, 0, 0, 0)),
            expected: "audio/ogg", canonicalExtension: "ogg"),
        .init(
            name: "ogg opus", bytes: oggPage(ByteBuilder().ascii("OpusHead").raw(1, 2)), expected: "audio/ogg",
            canonicalExtension: "opus"),
        .init(
            name: "ogg theora", bytes: oggPage(ByteBuilder().raw(0x80).ascii("theora").raw(3, 2)),
            expected: "video/ogg", canonicalExtension: "ogv"),
        .init(name: "ogg other", bytes: oggPage(ByteBuilder().ascii("fishead").raw(0)), expected: "application/ogg"),
        .init(
            name: "midi", bytes: ByteBuilder().ascii("MThd").raw(0, 0, 0, 6, 0, 1, 0, 2, 0x01, 0xE0).data,
            expected: "audio/midi", canonicalExtension: "mid"),
        .init(
            name: "avi", bytes: ByteBuilder().ascii("RIFF").raw(0, 0x10, 0, 0).ascii("AVI LIST").data,
            expected: "video/x-msvideo", canonicalExtension: "avi"),
        .init(
            name: "wav", bytes: ByteBuilder().ascii("RIFF").raw(0x24, 0, 0, 0).ascii("WAVEfmt ").raw(16, 0, 0, 0).data,
            expected: "audio/wav", canonicalExtension: "wav"),
        .init(
            name: "mp4 major brand",
            bytes: ByteBuilder().raw(0, 0, 0, 0x18).ascii("ftypmp42").raw(0, 0, 0, 0)
                .ascii("mp42isom").data, expected: "video/mp4", canonicalExtension: "mp4"),
        .init(
            name: "mp4 compatible brand",
            bytes: ByteBuilder().raw(0, 0, 0, 0x20).ascii("ftypisom").raw(0, 0, 2, 0)
                .ascii("isomiso2avc1mp41").data, expected: "video/mp4"),
        .init(
            name: "m4a",
            bytes: ByteBuilder().raw(0, 0, 0, 0x1C).ascii("ftypM4A ").raw(0, 0, 0, 0)
                .ascii("M4A mp42isom").data, expected: "video/mp4"),
        .init(
            name: "ftyp box larger than input",
            bytes: ByteBuilder().raw(0, 0, 4, 0).ascii("ftypmp42").raw(0, 0, 0, 0).data,
            expected: "application/octet-stream"),
        .init(
            name: "quicktime",
            bytes: ByteBuilder().raw(0, 0, 0, 0x14).ascii("ftypqt  ").raw(0, 0, 2, 0).ascii("qt  ").data,
            expected: "application/octet-stream"),
        .init(
            name: "webm",
            bytes: ByteBuilder().raw(
                0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0xF7, 0x81, 0x01,
                0x42, 0xF2, 0x81, 0x04, 0x42, 0xF3, 0x81, 0x08, 0x42, 0x82, 0x84
            )
            .ascii("webm").raw(0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02).data,
            expected: "video/webm", canonicalExtension: "webm"),
        .init(
            name: "webm with 8-byte sizes and padded doc type",
            bytes: ByteBuilder().raw(0x1A, 0x45, 0xDF, 0xA3, 0x01, 0, 0, 0, 0, 0, 0, 0x23, 0x42, 0x82, 0x86, 0, 0)
                .ascii("webm").raw(0x42, 0x87, 0x81, 0x04).data,
            expected: "video/webm"),
        .init(
            name: "matroska",
            bytes: ByteBuilder().raw(0x1A, 0x45, 0xDF, 0xA3, 0xA3, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x88)
                .ascii("matroska").raw(0x42, 0x87, 0x81, 0x04).data,
            expected: "video/x-matroska", canonicalExtension: "mkv"),
        .init(
            name: "ebml without doc type",
            bytes: ByteBuilder().raw(0x1A, 0x45, 0xDF, 0xA3).repeating(0x01, count: 40).data,
            expected: "application/octet-stream"),
    ]

    // MARK: Fonts and archives

    static let fontAndArchiveCases: [SniffCase] = [
        .init(
            name: "woff", bytes: ByteBuilder().ascii("wOFF").raw(0, 1, 0, 0, 0, 0, 0x10, 0).data,
            expected: "font/woff", canonicalExtension: "woff"),
        .init(
            name: "woff2", bytes: ByteBuilder().ascii("wOF2").raw(0, 1, 0, 0, 0, 0, 0x10, 0).data,
            expected: "font/woff2", canonicalExtension: "woff2"),
        .init(
            name: "truetype", bytes: ByteBuilder().raw(0, 1, 0, 0, 0, 0x0A, 0, 0x80, 0, 3, 0, 0x20).data,
            expected: "font/ttf", canonicalExtension: "ttf"),
        .init(
            name: "opentype", bytes: ByteBuilder().ascii("OTTO").raw(0, 0x0A, 0, 0x80, 0, 3, 0, 0x20).data,
            expected: "font/otf", canonicalExtension: "otf"),
        .init(
            name: "collection", bytes: ByteBuilder().ascii("ttcf").raw(0, 1, 0, 0, 0, 0, 0, 2).data,
            expected: "font/collection", canonicalExtension: "ttc"),
        .init(
            name: "eot",
            bytes: ByteBuilder().raw(0x40, 0x10, 0, 0, 0x20, 0x10, 0, 0, 2, 0, 2, 0).repeating(0, count: 22)
                .ascii("LP").raw(1, 0).data, expected: "application/vnd.ms-fontobject", canonicalExtension: "eot"),
        .init(name: "text starting like a font", bytes: text("OTTO was here.\n"), expected: "text/plain"),
        .init(
            name: "gzip", bytes: ByteBuilder().raw(0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03).data,
            expected: "application/gzip", canonicalExtension: "gz"),
        .init(
            name: "zip", bytes: ByteBuilder().ascii("PK").raw(3, 4, 0x14, 0, 0, 0, 8, 0).data,
            expected: "application/zip", canonicalExtension: "zip"),
        .init(
            name: "rar 4", bytes: ByteBuilder().ascii("Rar!").raw(0x1A, 0x07, 0x00, 0xCF, 0x90, 0x73).data,
            expected: "application/vnd.rar", canonicalExtension: "rar"),
        .init(
            name: "rar 5", bytes: ByteBuilder().ascii("Rar!").raw(0x1A, 0x07, 0x01, 0x00, 0x33, 0x92).data,
            expected: "application/vnd.rar", canonicalExtension: "rar"),
    ]

    // MARK: Text or binary

    static let textOrBinaryCases: [SniffCase] = [
        .init(name: "empty", bytes: Data(), expected: "text/plain"),
        .init(name: "ascii text", bytes: text("hello, world\n"), expected: "text/plain", canonicalExtension: "txt"),
        .init(name: "utf-8 text", bytes: text("héllo wörld ✓\n"), expected: "text/plain"),
        .init(
            name: "escape and form feed are text", bytes: ByteBuilder().ascii("a").raw(0x1B, 0x0C, 0x09).data,
            expected: "text/plain"),
        .init(name: "nul byte", bytes: ByteBuilder().ascii("abc").raw(0).data, expected: "application/octet-stream"),
        .init(
            name: "unknown binary", bytes: ByteBuilder().raw(0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x01, 0x02, 0x03).data,
            expected: "application/octet-stream"),
        .init(
            name: "binary then html", bytes: ByteBuilder().raw(0x01).ascii("<html>").data,
            expected: "application/octet-stream"),
        .init(
            name: "binary byte beyond the resource header",
            bytes: ByteBuilder().repeating(UInt8(ascii: "a"), count: 1445).raw(0).data, expected: "text/plain"),
        .init(
            name: "binary byte at the end of the resource header",
            bytes: ByteBuilder().repeating(UInt8(ascii: "a"), count: 1444).raw(0).data,
            expected: "application/octet-stream"),
    ]

    static let allCases = markupCases + imageCases + mediaCases + fontAndArchiveCases + textOrBinaryCases

    @Test(arguments: allCases)
    func sniffsFormat(_ testCase: SniffCase) {
        #expect(Self.sniffer.sniff(testCase.bytes).essence == testCase.expected)
        #expect(Self.detector.sniff(testCase.bytes) == testCase.expected)
    }

    /// A file sniffs to the type its extension gives, so a response does not change type when a
    /// file loses its extension.
    @Test(arguments: allCases.filter { $0.canonicalExtension != nil })
    func sniffedTypeAgreesWithTheExtensionTable(_ testCase: SniffCase) throws {
        let ext = try #require(testCase.canonicalExtension)
        #expect(Self.detector.mimeType(forExtension: ext) == testCase.expected)
    }

    @Test func byteOrderMarksNameTheCharset() {
        #expect(Self.sniffer.sniff(ByteBuilder().raw(0xEF, 0xBB, 0xBF).ascii("x").data).charset == "utf-8")
        #expect(Self.sniffer.sniff(ByteBuilder().raw(0xFE, 0xFF, 0, 0x78).data).charset == "utf-16be")
        #expect(Self.sniffer.sniff(ByteBuilder().raw(0xFF, 0xFE, 0x78, 0).data).charset == "utf-16le")
        #expect(Self.sniffer.sniff(Self.text("plain")).charset == nil)
    }

    @Test func scriptableTypesAreNotSniffedWhenDisabled() {
        let sniffer = MIMESniffer(sniffsScriptableTypes: false)
        #expect(sniffer.sniff(Self.text("<!DOCTYPE html><html>")).essence == "text/plain")
        #expect(sniffer.sniff(Self.text("<?xml version=\"1.0\"?>")).essence == "text/plain")
        #expect(sniffer.sniff(Self.text("%PDF-1.4\n")).essence == "text/plain")
        #expect(
            sniffer.sniff(ByteBuilder().raw(0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A).data).essence == "image/png"
        )
    }

    /// No binary input sniffs as HTML, whatever follows the first bytes.
    @Test func unknownBinaryIsNeverHTML() {
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<2000 {
            let count = Int(generator.next() % 64) + 1
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            bytes[Int(generator.next() % UInt64(count))] = 0x00  // at least one binary data byte
            let sniffed = Self.sniffer.sniff(Data(bytes))
            #expect(sniffed.essence != "text/html", "\(bytes)")
            // Binary data is text only behind a byte order mark.
            #expect(sniffed.essence != "text/plain" || sniffed.charset != nil, "\(bytes)")
        }
    }

    /// Real files on this machine (fonts, icons, Debian docs) sniff to their extension's type.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/fonts")))
    func sniffsRealFilesOnThisMachine() throws {
        let wanted: Set<String> = [
            "png", "gif", "jpg", "jpeg", "ttf", "otf", "ttc", "woff", "woff2", "gz", "pdf", "zip",
        ]
        var found: [String: Int] = [:]
        for root in ["/usr/share/fonts", "/usr/share/icons", "/usr/share/pixmaps", "/usr/share/doc"] {
            guard let enumerator = FileManager.default.enumerator(atPath: root) else { continue }
            var visited = 0
            while let relative = enumerator.nextObject() as? String, visited < 20_000 {
                visited += 1
                let ext = (relative as NSString).pathExtension.lowercased()
                guard wanted.contains(ext), found[ext, default: 0] < 5 else { continue }
                let path = root + "/" + relative
                guard let handle = FileHandle(forReadingAtPath: path) else { continue }
                defer { try? handle.close() }
                guard let head = try handle.read(upToCount: MIMESniffer.resourceHeaderLength), head.count >= 16 else {
                    continue
                }
                found[ext, default: 0] += 1
                #expect(Self.detector.sniff(head) == Self.detector.mimeType(forExtension: ext), "\(path)")
            }
        }
        #expect(found["ttf", default: 0] + found["otf", default: 0] > 0, "no font found under /usr/share/fonts")
    }
}

/// A small deterministic generator, so a failing input can be reproduced.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
