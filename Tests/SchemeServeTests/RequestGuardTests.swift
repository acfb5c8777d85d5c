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

        /// Strict `Host` (RFC 9112 §3.2): the attack cases a black-box run found, each a 400; a
        /// well-formed host that is not allowed stays a 403.
        @Test(
            arguments: [
                // Host values, target, status (nil: allowed)
                (["localhost:8080"], "/", nil),
                (["127.0.0.1"], "/x?y", nil),
                (["[::1]:8080"], "/", nil),
                (["LOCALHOST"], "/", nil),
                (["localhost:8080"], "http://localhost:8080/a", nil),
                (["localhost"], "HTTP://LocalHost/a?b", nil),
                ([], "/", 400),
                (["localhost", "evil.example"], "/", 400),
                (["localhost", "localhost"], "/", 400),
                (["evil.example"], "/", 403),
                (["[::1].evil.example"], "/", 400),
                (["localhost:8080@evil"], "/", 400),
                (["localhost:8080/evil"], "/", 400),
                (["localhost:8080, evil"], "/", 400),
                (["localhost evil"], "/", 400),
                (["localhost:"], "/", 400),
                (["localhost:80a"], "/", 400),
                ([":8080"], "/", 400),
                (["[::1"], "/", 400),
                (["local%68ost"], "/", 400),
                (["localhost:8080"], "http://evil.example/a", 400),
                (["localhost:8080"], "http://localhost:9090/a", 400),
                (["localhost:8080"], "ftp://localhost:8080/a", 400),
                (["localhost:8080"], "http://localhost:8080", 400),
                (["evil.example"], "http://evil.example/a", 403),
            ] as [([String], String, Int?)])
        func strictHost(values: [String], target: String, status: Int?) {
            let rejection = RequestGuard().checkHost(values: values, target: target)
            #expect(rejection?.status.code == status, "Host \(values), target \(target)")
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
