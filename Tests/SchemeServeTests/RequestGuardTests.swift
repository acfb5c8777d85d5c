// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import HTTPTypes
    import Testing

    @testable import SchemeServe

    /// The request guard and the response transforms as pure tables.
    struct RequestGuardTests {
        @Test(arguments: [
            ("/", true), ("/a/b.js?x=1", true), ("/a#b", false), ("/a%00b", false), ("/a\u{0}", false), ("a", false),
            ("*", false), ("/a b", false), ("/a\tb", false), ("/%2500", true), ("/100%", true),
        ])
        func targets(target: String, allowed: Bool) {
            #expect((RequestGuard.checkTarget(target) == nil) == allowed)
        }

        @Test(arguments: [
            ("localhost", true), ("LocalHost:99", true), ("a.b.localhost", true), ("localhost.", true),
            ("127.0.0.1:8080", true),
            ("[::1]:8080", true), ("[::2]", false), ("evil.localhost.com", false), ("x.dev.test", true),
            ("dev.test", false),
            ("exact.test", true), ("sub.exact.test", false), (".localhost", false),
        ])
        func hosts(host: String, allowed: Bool) {
            let requestGuard = RequestGuard(allowedHosts: ["*.dev.test", "Exact.Test"])
            #expect(requestGuard.isAllowed(host: host) == allowed)
        }

        @Test func headerValuesWithLineBreaksAreDropped() {
            var fields = HTTPFields()
            fields[.contentType] = "text/plain"
            fields.append(HTTPField(name: .eTag, lenientValue: Array("\"a\"\r\nSet-Cookie: x=1".utf8)))
            fields.append(HTTPField(name: .cacheControl, lenientValue: Array("no-cache\u{0C}".utf8)))
            ResponseTransforms.sanitise(&fields)
            for field in fields {
                #expect(!field.value.contains("\r") && !field.value.contains("\n") && !field.value.contains("\u{0C}"))
            }
            #expect(fields[.contentType] == "text/plain")
        }

        @Test func liveReloadScriptGoesBeforeBody() {
            let html = Data("<html><BODY>x</Body></html>".utf8)
            let result = String(decoding: ResponseTransforms.inject(Data("<s>".utf8), into: html), as: UTF8.self)
            #expect(result == "<html><BODY>x<s></Body></html>")
        }
    }
#endif
