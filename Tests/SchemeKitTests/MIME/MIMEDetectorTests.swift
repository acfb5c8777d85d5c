import Foundation
import Testing

@testable import SchemeKit

struct MIMEDetectorTests {
    let detector = MIMEDetector()

    @Test(
        arguments: [
            ("index.html", "text/html", "utf-8"),
            ("INDEX.HTML", "text/html", "utf-8"),
            ("/app/js/main.MJS", "text/javascript", "utf-8"),
            ("vendor/jquery.min.js", "text/javascript", "utf-8"),
            ("a.tar.gz", "application/gzip", nil),
            ("noext", "application/octet-stream", nil),
            (".hidden", "application/octet-stream", nil),
            (".bashrc", "application/octet-stream", nil),
            ("..", "application/octet-stream", nil),
            ("dir.d/file", "application/octet-stream", nil),
            ("dir/", "application/octet-stream", nil),
            ("", "application/octet-stream", nil),
            ("file.", "application/octet-stream", nil),
            (".config.json", "application/json", "utf-8"),
            ("/x/sbom.spdx.json", "application/spdx+json", "utf-8"),
            ("data.unknown.json", "application/json", "utf-8"),
            ("icons/logo.svg", "image/svg+xml", "utf-8"),
            ("photo.PNG", "image/png", nil),
            ("fonts/inter.woff2", "font/woff2", nil),
            ("app.webmanifest", "application/manifest+json", "utf-8"),
            ("app.wasm", "application/wasm", nil),
            ("main.js.map", "application/json", "utf-8"),
            ("video/seg0001.ts", "video/mp2t", nil),
            ("playlist.m3u8", "application/vnd.apple.mpegurl", "utf-8"),
            ("favicon.ico", "image/x-icon", nil),
            ("styles/site.css", "text/css", "utf-8"),
        ] as [(String, String, String?)])
    func decidesByExtension(_ path: String, _ mimeType: String, _ charset: String?) {
        let result = detector.contentType(forPath: path)
        #expect(result.mimeType == mimeType)
        #expect(result.charset == charset)
    }

    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D])

    @Test func sniffsWhenTheExtensionIsMissingOrUnknown() {
        #expect(detector.contentType(forPath: "logo", leadingBytes: Self.png) == ("image/png", nil))
        #expect(detector.contentType(forPath: "logo.nosuchext", leadingBytes: Self.png) == ("image/png", nil))
        #expect(detector.contentType(forPath: "README", leadingBytes: Data("hello".utf8)) == ("text/plain", "utf-8"))
        #expect(
            detector.contentType(forPath: "page", leadingBytes: Data("<html><body>".utf8)) == ("text/html", "utf-8"))
        #expect(detector.contentType(forPath: ".hidden", leadingBytes: Data("<p>x".utf8)) == ("text/html", "utf-8"))
    }

    @Test func theExtensionWinsOverTheBytes() {
        #expect(detector.contentType(forPath: "x.png", leadingBytes: Data("<html>".utf8)) == ("image/png", nil))
        #expect(detector.contentType(forPath: "x.txt", leadingBytes: Self.png).mimeType == "text/plain")
    }

    @Test func unknownBinaryIsOctetStreamNeverHTML() {
        let binary = Data([0x00, 0x3C, 0x68, 0x74, 0x6D, 0x6C, 0x3E, 0x01])
        #expect(detector.contentType(forPath: "blob", leadingBytes: binary) == ("application/octet-stream", nil))
        #expect(detector.contentType(forPath: "blob.xyz123", leadingBytes: binary) == ("application/octet-stream", nil))
        #expect(detector.contentType(forPath: "blob") == ("application/octet-stream", nil))
    }

    @Test func charsetFollowsTheConfiguration() {
        let none = MIMEDetector(overrides: [:], defaultCharset: nil)
        #expect(none.contentType(forPath: "a.html") == ("text/html", nil))
        let latin1 = MIMEDetector(overrides: [:], defaultCharset: "iso-8859-1")
        #expect(latin1.contentType(forPath: "a.css") == ("text/css", "iso-8859-1"))
        #expect(latin1.contentType(forPath: "a.png") == ("image/png", nil))
    }

    @Test func leadingBytesRefineTheCharset() {
        let utf16 = Data([0xFF, 0xFE, 0x68, 0x00, 0x69, 0x00])
        #expect(detector.contentType(forPath: "a.txt", leadingBytes: utf16) == ("text/plain", "utf-16le"))
        #expect(detector.contentType(forPath: "notes", leadingBytes: utf16) == ("text/plain", "utf-16le"))
        var latin1 = Data("<html><meta charset=iso-8859-1>caf".utf8)
        latin1.append(contentsOf: [0xE9] + Array(" au lait".utf8))
        #expect(detector.contentType(forPath: "a.html", leadingBytes: latin1) == ("text/html", nil))
        let utf8 = Data("<html>café ✓".utf8)
        #expect(detector.contentType(forPath: "a.html", leadingBytes: utf8) == ("text/html", "utf-8"))
        // A multi-byte sequence cut off by the end of the leading bytes is still UTF-8.
        #expect(detector.contentType(forPath: "a.html", leadingBytes: utf8.dropLast()) == ("text/html", "utf-8"))
    }

    @Test func overridesReplaceAndExtendTheTable() {
        let custom = MIMEDetector(overrides: [
            "FOO": .json,
            ".js": MediaType(rawValue: "application/javascript")!,
            "tar.gz": MediaType(rawValue: "application/x-gtar-compressed")!,
            "legacy": MediaType(rawValue: "text/plain; charset=windows-1252")!,
        ])
        #expect(custom.mimeType(forExtension: "foo") == "application/json")
        #expect(custom.contentType(forPath: "x.Foo") == ("application/json", "utf-8"))
        #expect(custom.contentType(forPath: "app.js") == ("application/javascript", "utf-8"))
        #expect(custom.contentType(forPath: "a.tar.gz").mimeType == "application/x-gtar-compressed")
        #expect(custom.contentType(forPath: "a.gz").mimeType == "application/gzip")
        #expect(custom.contentType(forPath: "old.legacy") == ("text/plain", "windows-1252"))
        #expect(custom.contentType(forPath: "index.html") == ("text/html", "utf-8"))
    }

    @Test func headerValueAndMediaTypeCombineTypeAndCharset() {
        #expect(detector.contentTypeHeaderValue(forPath: "main.mjs") == "text/javascript; charset=utf-8")
        #expect(detector.contentTypeHeaderValue(forPath: "a.woff2") == "font/woff2")
        #expect(detector.mediaType(forPath: "a.svg") == MediaType.svg.withCharset("utf-8"))
        #expect(detector.mediaType(forPath: "unknown") == .octetStream)
    }
}
