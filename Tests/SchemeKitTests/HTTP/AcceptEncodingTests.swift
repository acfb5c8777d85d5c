import HTTPTypes
import Testing

@testable import SchemeKit

/// `Accept-Encoding` ([RFC 9110 §12.5.3](https://www.rfc-editor.org/rfc/rfc9110#section-12.5.3)).
struct AcceptEncodingTests {
    @Test(arguments: [
        // header, coding, allowed
        ("gzip, deflate, br, zstd", "gzip", true),
        ("gzip, deflate, br, zstd", "br", true),
        ("gzip, deflate, br, zstd", "zstd", true),
        ("gzip, deflate, br, zstd", "compress", false),
        ("GZIP", "gzip", true),
        ("x-gzip", "gzip", true),
        ("gzip;q=0", "gzip", false),
        ("gzip; q=0.000", "gzip", false),
        ("gzip;q=0.001", "gzip", true),
        ("br;q=1.0, gzip;q=0.5", "gzip", true),
        ("*", "gzip", true),
        ("*;q=0", "gzip", false),
        ("*, gzip;q=0", "gzip", false),
        ("*, gzip;q=0", "br", true),
        ("gzip;q=0, *", "gzip", false),
        ("identity", "gzip", false),
        ("", "gzip", false),
        (" , ,gzip , ", "gzip", true),
        ("gzip;level=1;q=0.5", "gzip", true),
        ("gzip;q=", "gzip", false),
        ("exi, gzip", "exi", true),
        ("EXI;q=0, *", "exi", false),
        ("exi;q=0.2", "aes128gcm", false),
    ])
    func acceptance(header: String, coding: String, allowed: Bool) {
        #expect(AcceptEncoding(header).allows(coding) == allowed, "\(header) → \(coding)")
    }

    @Test(
        arguments: [
            // Accept, Sec-Fetch-Mode, navigation
            ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", nil, true),
            ("*/*", nil, false),
            ("image/avif,image/webp,*/*;q=0.8", nil, false),
            ("application/json, text/html;q=0.5", nil, false),
            ("text/html;q=0", nil, false),
            ("text/html, application/json", nil, true),
            ("*/*", "navigate", true),
            ("text/html", "no-cors", false),
            ("text/html", "cors", false),
        ] as [(String, String?, Bool)])
    func navigation(accept: String, mode: String?, navigation: Bool) {
        var fields = HTTPFields()
        fields[.accept] = accept
        if let mode { fields[.secFetchMode] = mode }
        #expect(NavigationRequest.isNavigation(fields) == navigation)
    }

    @Test func aRequestWithNeitherFieldIsUndecided() {
        #expect(NavigationRequest.isNavigation(HTTPFields()) == nil)
    }
}
