import Foundation
import Testing

@testable import SchemeKit

struct MIMETypeTableTests {
    let detector = MIMEDetector()

    /// Every override of Scripts/generate-mime-table.py (the modern web types).
    static let overrides: [(String, String)] = [
        ("js", "text/javascript"), ("mjs", "text/javascript"), ("cjs", "text/javascript"),
        ("json", "application/json"), ("map", "application/json"), ("wasm", "application/wasm"),
        ("webmanifest", "application/manifest+json"), ("svg", "image/svg+xml"), ("avif", "image/avif"),
        ("webp", "image/webp"), ("ico", "image/x-icon"), ("cur", "image/x-icon"), ("woff", "font/woff"),
        ("woff2", "font/woff2"), ("ttf", "font/ttf"), ("otf", "font/otf"), ("ttc", "font/collection"),
        ("mp4", "video/mp4"), ("webm", "video/webm"), ("weba", "audio/webm"),
        ("m3u8", "application/vnd.apple.mpegurl"), ("ts", "video/mp2t"), ("m4s", "video/iso.segment"),
        ("mpd", "application/dash+xml"), ("3gp", "video/3gpp"), ("3g2", "video/3gpp2"), ("mka", "audio/x-matroska"),
        ("wav", "audio/wav"), ("aif", "audio/aiff"), ("aiff", "audio/aiff"), ("mid", "audio/midi"),
        ("midi", "audio/midi"), ("kar", "audio/midi"), ("yaml", "application/yaml"), ("yml", "application/yaml"),
        ("toml", "application/toml"), ("xsd", "application/xml"),
    ]

    @Test(arguments: overrides)
    func modernWebTypesOverrideDebian(_ ext: String, _ mimeType: String) {
        #expect(detector.mimeType(forExtension: ext) == mimeType)
    }

    /// A sample of Debian's /etc/mime.types entries that no override touches.
    @Test(arguments: [
        ("html", "text/html"), ("htm", "text/html"), ("css", "text/css"), ("txt", "text/plain"),
        ("png", "image/png"), ("jpg", "image/jpeg"), ("jpeg", "image/jpeg"), ("gif", "image/gif"),
        ("pdf", "application/pdf"), ("zip", "application/zip"), ("gz", "application/gzip"),
        ("mp3", "audio/mpeg"), ("ogg", "audio/ogg"), ("xml", "application/xml"), ("csv", "text/csv"),
        ("md", "text/markdown"), ("xhtml", "application/xhtml+xml"), ("jsonld", "application/ld+json"),
        ("epub", "application/epub+zip"),
        ("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        ("rar", "application/vnd.rar"), ("vtt", "text/vtt"), ("heic", "image/heic"), ("jxl", "image/jxl"),
        ("sh", "application/x-sh"),  // listed twice in Debian: the first listing wins
        ("spdx.json", "application/spdx+json"),  // a multi-part extension
        ("pcf.z", "application/x-font-pcf"),  // listed as `pcf.Z`: keys are lowercased
        ("teicorpus", "application/tei+xml"),
    ])
    func debianEntriesArePresent(_ ext: String, _ mimeType: String) {
        #expect(detector.mimeType(forExtension: ext) == mimeType)
    }

    @Test(arguments: ["HTML", "Html", ".html", ".HTML", "hTmL"])
    func extensionLookupIsCaseInsensitive(_ ext: String) {
        #expect(detector.mimeType(forExtension: ext) == "text/html")
    }

    @Test(arguments: ["", ".", "nosuchextension", "html ", "ht ml", "tar.gz"])
    func unknownExtensionsHaveNoType(_ ext: String) {
        #expect(detector.mimeType(forExtension: ext) == nil)
    }

    @Test func generatedSourceIsSortedAndWellFormed() {
        let lines = MIMETypeTable.source.split(separator: "\n")
        #expect(lines.count == MIMETypeTable.entryCount)
        #expect(MIMETypeTable.index.count == MIMETypeTable.entryCount)
        let keys = lines.map { String($0.prefix { $0 != " " }) }
        #expect(keys == keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(keys.allSatisfy { $0 == $0.lowercased() })
        #expect(MIMETypeTable.index.values.allSatisfy { MediaType(rawValue: $0.mimeType) != nil })
    }

    /// The table is at least as complete as the machine's Debian `media-types` package. If this
    /// fails after a `media-types` upgrade, run Scripts/generate-mime-table.py.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/etc/mime.types")))
    func coversEveryExtensionOfEtcMimeTypes() throws {
        let text = try String(contentsOfFile: "/etc/mime.types", encoding: .utf8)
        var extensions: [String] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            extensions += line.split(whereSeparator: \.isWhitespace).dropFirst().map(String.init)
        }
        #expect(extensions.count > 1000)
        let missing = extensions.filter { detector.mimeType(forExtension: $0) == nil }
        #expect(missing.isEmpty, "not in the generated table: \(missing)")
    }
}
