import HTTPTypes
import SchemeKit
import Testing

extension HTTPTests {
    struct ConditionalRequestTests {
        typealias Decision = ConditionalRequest.Decision

        static let validators = ConditionalRequest.Validators(
            entityTag: EntityTag(opaqueTag: "v2"),
            lastModified: 784_111_777  // Sun, 06 Nov 1994 08:49:37 GMT
        )
        static let modified = "Sun, 06 Nov 1994 08:49:37 GMT"
        static let earlier = "Sun, 06 Nov 1994 08:49:36 GMT"
        static let later = "Sun, 06 Nov 1994 08:49:38 GMT"

        static let cases: [(String, [(HTTPField.Name, String)], HTTPRequest.Method, Decision)] = [
            ("no conditions", [], .get, .proceed(honourRange: true)),
            ("If-None-Match matches", [(.ifNoneMatch, "\"v2\"")], .get, .notModified),
            ("If-None-Match weak match", [(.ifNoneMatch, "W/\"v2\"")], .get, .notModified),
            ("If-None-Match list", [(.ifNoneMatch, "\"v1\", \"v2\"")], .head, .notModified),
            ("If-None-Match star", [(.ifNoneMatch, "*")], .get, .notModified),
            ("If-None-Match other", [(.ifNoneMatch, "\"v1\"")], .get, .proceed(honourRange: true)),
            ("If-None-Match on POST", [(.ifNoneMatch, "\"v2\"")], .post, .preconditionFailed),
            ("If-Modified-Since equal", [(.ifModifiedSince, modified)], .get, .notModified),
            ("If-Modified-Since later", [(.ifModifiedSince, later)], .get, .notModified),
            ("If-Modified-Since earlier", [(.ifModifiedSince, earlier)], .get, .proceed(honourRange: true)),
            ("If-Modified-Since invalid", [(.ifModifiedSince, "garbage")], .get, .proceed(honourRange: true)),
            ("If-Modified-Since on POST", [(.ifModifiedSince, later)], .post, .proceed(honourRange: true)),
            (
                "If-None-Match wins over If-Modified-Since", [(.ifNoneMatch, "\"v1\""), (.ifModifiedSince, later)],
                .get,
                .proceed(honourRange: true)
            ),
            ("If-Match matches", [(.ifMatch, "\"v2\"")], .get, .proceed(honourRange: true)),
            ("If-Match star", [(.ifMatch, "*")], .get, .proceed(honourRange: true)),
            ("If-Match other", [(.ifMatch, "\"v1\"")], .get, .preconditionFailed),
            ("If-Match weak never matches", [(.ifMatch, "W/\"v2\"")], .get, .preconditionFailed),
            ("If-Unmodified-Since earlier", [(.ifUnmodifiedSince, earlier)], .get, .preconditionFailed),
            ("If-Unmodified-Since equal", [(.ifUnmodifiedSince, modified)], .get, .proceed(honourRange: true)),
            (
                "If-Match beats If-Unmodified-Since", [(.ifMatch, "\"v2\""), (.ifUnmodifiedSince, earlier)], .get,
                .proceed(honourRange: true)
            ),
            (
                "If-Match before If-None-Match", [(.ifMatch, "\"v1\""), (.ifNoneMatch, "\"v2\"")], .get,
                .preconditionFailed
            ),
            ("If-Range strong tag", [(.ifRange, "\"v2\"")], .get, .proceed(honourRange: true)),
            ("If-Range other tag", [(.ifRange, "\"v1\"")], .get, .proceed(honourRange: false)),
            ("If-Range weak tag", [(.ifRange, "W/\"v2\"")], .get, .proceed(honourRange: false)),
            ("If-Range exact date", [(.ifRange, modified)], .get, .proceed(honourRange: true)),
            ("If-Range later date", [(.ifRange, later)], .get, .proceed(honourRange: false)),
            ("If-Range garbage", [(.ifRange, "garbage")], .get, .proceed(honourRange: false)),
        ]

        @Test(arguments: cases)
        func evaluation(
            name: String, fields: [(HTTPField.Name, String)], method: HTTPRequest.Method, expected: Decision
        ) {
            var headerFields = HTTPFields()
            for (field, value) in fields { headerFields.append(HTTPField(name: field, value: value)) }
            let request = ConditionalRequest(headerFields)
            #expect(request.evaluate(method: method, validators: Self.validators) == expected, "\(name)")
        }

        @Test func emptiness() {
            #expect(ConditionalRequest([:]).isEmpty)
            #expect(ConditionalRequest([.ifModifiedSince: "garbage"]).isEmpty)
            #expect(!ConditionalRequest([.ifRange: "garbage"]).isEmpty)
            #expect(!ConditionalRequest([.ifNoneMatch: "*"]).isEmpty)
        }

        @Test func missingValidatorsFailSafe() {
            let none = ConditionalRequest.Validators()
            #expect(
                ConditionalRequest([.ifMatch: "\"v2\""]).evaluate(method: .get, validators: none) == .preconditionFailed
            )
            #expect(
                ConditionalRequest([.ifNoneMatch: "\"v2\""]).evaluate(method: .get, validators: none)
                    == .proceed(honourRange: true))
            #expect(
                ConditionalRequest([.ifModifiedSince: Self.later]).evaluate(method: .get, validators: none)
                    == .proceed(honourRange: true))
            #expect(
                ConditionalRequest([.ifRange: Self.modified]).evaluate(method: .get, validators: none)
                    == .proceed(honourRange: false))
        }
    }
}
