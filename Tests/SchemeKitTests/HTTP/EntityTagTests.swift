import SchemeKit
import Testing

extension HTTPTests {
    struct EntityTagTests {
        @Test(
            arguments: [
                ("\"abc\"", EntityTag(opaqueTag: "abc")),
                ("W/\"abc\"", EntityTag(opaqueTag: "abc", isWeak: true)),
                ("  \"\"  ", EntityTag(opaqueTag: "")),
                ("\"a-1f/x\"", EntityTag(opaqueTag: "a-1f/x")),
                ("abc", nil),
                ("\"abc", nil),
                ("w/\"abc\"", nil),
                ("\"a\"b\"", nil),
                ("\"a b\"", nil),
                ("\"a\", \"b\"", nil),
            ] as [(String, EntityTag?)])
        func parseOne(value: String, expected: EntityTag?) {
            #expect(EntityTag(value) == expected)
        }

        @Test func headerValueRoundTrips() {
            for tag in [EntityTag(opaqueTag: "x1"), EntityTag(opaqueTag: "x1", isWeak: true)] {
                #expect(EntityTag(tag.headerValue) == tag)
            }
            #expect(EntityTag(opaqueTag: "x", isWeak: true).headerValue == "W/\"x\"")
        }

        /// RFC 9110 §8.8.3.2's comparison table.
        @Test(arguments: [
            ("W/\"1\"", "W/\"1\"", false, true),
            ("W/\"1\"", "W/\"2\"", false, false),
            ("W/\"1\"", "\"1\"", false, true),
            ("\"1\"", "\"1\"", true, true),
        ])
        func comparison(lhs: String, rhs: String, strong: Bool, weak: Bool) throws {
            let a = try #require(EntityTag(lhs))
            let b = try #require(EntityTag(rhs))
            #expect(a.strongMatches(b) == strong)
            #expect(a.weakMatches(b) == weak)
            #expect(b.strongMatches(a) == strong)
        }

        @Test func listsParseAndSkipGarbage() {
            #expect(EntityTagCondition(" * ") == .any)
            #expect(
                EntityTagCondition("\"a\", W/\"b\" ,\"c\"")
                    == .tags([
                        EntityTag(opaqueTag: "a"), EntityTag(opaqueTag: "b", isWeak: true), EntityTag(opaqueTag: "c"),
                    ]))
            #expect(EntityTagCondition("garbage, \"ok\"") == .tags([EntityTag(opaqueTag: "ok")]))
            #expect(EntityTagCondition("nonsense") == .tags([]))
            #expect(
                EntityTagCondition("\"a\",,\"b\"") == .tags([EntityTag(opaqueTag: "a"), EntityTag(opaqueTag: "b")]))
        }

        @Test func conditionMatching() {
            let current = EntityTag(opaqueTag: "v1")
            #expect(EntityTagCondition("W/\"v1\"").weakMatches(current))
            #expect(!EntityTagCondition("W/\"v1\"").strongMatches(current))
            #expect(EntityTagCondition("\"v0\", \"v1\"").strongMatches(current))
            #expect(EntityTagCondition("*").strongMatches(nil))
            #expect(!EntityTagCondition("\"v1\"").weakMatches(nil))
        }
    }
}
