#if Firefox
    import Foundation
    import Testing

    @testable import SchemeKitFirefox
    import SchemeKitBrowserSupport

    /// The BiDi message layer without a browser: the JSON reader and writer, the envelope, the
    /// request event, remote values.
    struct BiDiJSONTests {
        static func read(_ text: String) throws -> BiDiValue {
            try BiDiJSONReader.read(Array(text.utf8))
        }

        @Test(arguments: [
            ("null", BiDiValue.null), ("true", .bool(true)), ("false", .bool(false)), ("0", .int(0)),
            ("-12", .int(-12)), ("1.5", .double(1.5)), ("1e3", .double(1000)), ("-0.25E-2", .double(-0.0025)),
            ("\"a\\\"b\\\\c\\/d\\n\"", .string("a\"b\\c/d\n")), ("\"\\u00e9\\u2603\"", .string("é☃")),
            ("\"\\ud83d\\ude00\"", .string("😀")), ("\"\\ud800x\"", .string("\u{FFFD}x")),
            ("[1, [2, []], {}]", .array([.int(1), .array([.int(2), .array([])]), .object([:])])),
            (
                " {\"a\": {\"b\": [null]}, \"c\": \"é\"} ",
                .object(["a": .object(["b": .array([.null])]), "c": .string("é")])
            ),
            ("18446744073709551616", .double(18_446_744_073_709_551_616)),
        ])
        func readsJSON(text: String, expected: BiDiValue) throws {
            #expect(try Self.read(text) == expected)
        }

        @Test(arguments: [
            "", "nul", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "01", "1.", "-", "\"\\x\"", "\"abc", "[1 2]",
            "\"a\u{01}b\"", "{} x", "tru", "\"\\u12\"", "{1: 2}", "1e999",
        ])
        func refusesWhatIsNotJSON(text: String) {
            #expect(throws: BiDiProtocolError.self) { try Self.read(text) }
        }

        @Test func refusesInvalidUTF8AndDeepNesting() {
            #expect(throws: BiDiProtocolError.self) { try BiDiJSONReader.read([0x22, 0xFF, 0x22]) }
            let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
            #expect(throws: BiDiProtocolError.self) { try Self.read(deep) }
            let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
            #expect((try? Self.read(fine)) != nil)
        }

        @Test func writesWhatItReads() throws {
            let value: BiDiValue = [
                "id": 7, "method": "network.provideResponse",
                "params": [
                    "text": "quote \" backslash \\ newline \n tab \t bell \u{07} é ☃", "n": .double(2.5),
                    "list": [true, nil],
                ],
            ]
            var writer = BiDiJSONWriter()
            writer.write(value)
            #expect(try BiDiJSONReader.read(writer.bytes) == value)
            #expect(value.description.hasPrefix("{\"id\":7,\"method\":"), "sorted keys")
        }

        @Test(arguments: [0, 1, 2, 3, 4, 5, 57, 65_536, 65_537])
        func binaryIsStandardBase64(count: Int) throws {
            let data = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
            var writer = BiDiJSONWriter()
            writer.write(.binary(data))
            let text = String(decoding: writer.bytes, as: UTF8.self)
            #expect(text == "\"\(data.base64EncodedString())\"")
        }

        @Test func classifiesMessages() throws {
            #expect(
                try BiDiMessage.parse(Self.read(#"{"type":"success","id":3,"result":{"a":1}}"#))
                    == .success(id: 3, result: ["a": 1]))
            #expect(
                try BiDiMessage.parse(Self.read(#"{"type":"error","id":4,"error":"no such request","message":"gone"}"#))
                    == .error(id: 4, error: "no such request", message: "gone"))
            #expect(
                try BiDiMessage.parse(Self.read(#"{"type":"error","id":null,"error":"invalid argument","message":""}"#))
                    == .error(id: nil, error: "invalid argument", message: ""))
            #expect(
                try BiDiMessage.parse(Self.read(#"{"type":"event","method":"log.entryAdded","params":{}}"#))
                    == .event(BiDiEvent(method: "log.entryAdded", params: [:])))
            for malformed in [
                "[]", #"{"id":1}"#, #"{"type":"success","id":"1","result":{}}"#, #"{"type":"success","id":1}"#,
                #"{"type":"event","params":{}}"#, #"{"type":"event","method":"x","params":[]}"#,
                #"{"type":"error","id":1}"#, #"{"type":"error","id":"x","error":"e"}"#, #"{"type":"other"}"#,
            ] {
                #expect(throws: BiDiProtocolError.self, "\(malformed)") { try BiDiMessage.parse(Self.read(malformed)) }
            }
        }

        @Test func readsARequestEvent() throws {
            let params = try Self.read(
                #"""
                {"context":"c1","navigation":null,"isBlocked":true,"intercepts":["i1"],"timestamp":1795595827118,
                 "request":{"request":"51-x","url":"https://app.localhost/a?b","method":"POST","bodySize":4,
                  "destination":"","headers":[{"name":"Range","value":{"type":"string","value":"bytes=0-"}},
                  {"name":"X-Bin","value":{"type":"base64","value":"w6k="}}]}}
                """#)
            let event = try BiDiRequestEvent(params: params)
            #expect(event.request == "51-x" && event.url == "https://app.localhost/a?b" && event.method == "POST")
            #expect(
                event.headers == [BiDiHeader(name: "Range", value: "bytes=0-"), BiDiHeader(name: "X-Bin", value: "é")])
            #expect(event.bodySize == 4 && event.context == "c1" && event.navigation == nil && event.isBlocked)
            #expect(event.intercepts == ["i1"])
            #expect(throws: BiDiProtocolError.self) { try BiDiRequestEvent(params: ["request": [:]]) }
            #expect(throws: BiDiProtocolError.self) {
                try BiDiRequestEvent(params: [
                    "request": ["request": "1", "url": "u", "method": "GET", "headers": [["name": "a", "value": "b"]]]
                ])
            }
        }

        @Test func remoteValuesBecomeJSON() throws {
            let remote = try Self.read(
                #"""
                {"type":"object","value":[["a",{"type":"array","value":[{"type":"number","value":1},{"type":"number","value":2.5},
                 {"type":"string","value":"x"},{"type":"null"},{"type":"undefined"},{"type":"boolean","value":true}]}],
                 ["n",{"type":"number","value":"NaN"}],["z",{"type":"number","value":"-0"}],["d",{"type":"date","value":"2026-01-01T00:00:00.000Z"}],
                 ["f",{"type":"function"}],["m",{"type":"map","value":[[{"type":"string","value":"k"},{"type":"bigint","value":"12"}]]}]]}
                """#)
            let json = try BiDiRemoteValue.json(from: remote)
            #expect(
                json.description
                    == #"{"a":[1,2.5,"x",null,null,true],"d":"2026-01-01T00:00:00.000Z","f":null,"m":{"k":"12"},"n":null,"z":0}"#
            )
            #expect(throws: BiDiProtocolError.self) { try BiDiRemoteValue.json(from: ["value": 1]) }
        }
    }
#endif
