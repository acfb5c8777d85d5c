#if Chromium
    import Foundation
    import SchemeKit
    import Testing

    @testable import SchemeKitChromium
    import SchemeKitBrowserSupport

    struct CDPCBORTests {
        @Test func roundTripsEveryKindOfValue() throws {
            let value = CDPValue.object([
                "id": .int(7), "neg": .int(-300), "big": .int(1 << 40), "pi": .double(3.25), "t": .bool(true),
                "f": .bool(false), "n": .null, "s": .string("héllo ☃"), "b": .binary(Data([0, 1, 2, 255])),
                "a": .array([.int(1), .string("x"), .object(["k": .string("v")])]),
            ])
            let encoded = CDPCBOR.encode(value)
            #expect(Array(encoded.prefix(3)) == [0xd8, 0x18, 0x5a])
            #expect(CDPCBOR.envelopeLength(encoded) == encoded.count - 7)
            #expect(try CDPCBOR.decode(encoded) == value)
        }

        /// A fulfil's body of 64 KiB or more is a piece of its own, the caller's bytes (no copy);
        /// the pieces together are the same message, envelope lengths included, nested or not.
        @Test func aLargeBinaryFieldIsAPieceOfItsOwnNotACopy() throws {
            let body = Data((0..<(200 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let small = Data([1, 2, 3])
            let value = CDPValue.object([
                "id": .int(9), "method": .string("Fetch.fulfillRequest"),
                "params": .object([
                    "requestId": .string("r1"), "responseCode": .int(200), "body": .binary(body),
                    "headers": .array([.object(["name": .string("a"), "value": .binary(small)])]),
                    "second": .binary(body),
                ]),
            ])
            let pieces = CDPCBOR.encodePieces(value)
            #expect(Data(pieces.joined()) == CDPCBOR.encode(value))
            #expect(try CDPCBOR.decode(Data(pieces.joined())) == value)
            let address = body.withUnsafeBytes { $0.baseAddress }
            let shared = pieces.filter { piece in piece.withUnsafeBytes { $0.baseAddress } == address }
            #expect(shared.count == 2, "both copies of the body are the caller's bytes")
            #expect(pieces.reduce(0) { $0 + $1.count } - 2 * body.count < 1024)
            // Below the threshold nothing is separated.
            #expect(CDPCBOR.encodePieces(.object(["b": .binary(small)])).count == 1)
        }

        @Test func decodesChromiumsUTF16ByteStringsAndHalfFloats() throws {
            // What Chromium 156 sent for Runtime.evaluate("'héllo ☃'"): the value as a UTF-16LE byte string.
            let utf16: [UInt8] = [0x4e, 0x68, 0, 0xe9, 0, 0x6c, 0, 0x6c, 0, 0x6f, 0, 0x20, 0, 0x03, 0x26]
            let map: [UInt8] = [0xbf, 0x65] + Array("value".utf8) + utf16 + [0x61, 0x68, 0xf9, 0x3e, 0x00, 0xff]
            let message = [0xd8, 0x18, 0x5a, 0, 0, 0, UInt8(map.count)] + map
            let value = try CDPCBOR.decode(Data(message))
            #expect(value["value"] == .string("héllo ☃"))
            #expect(value["h"] == .double(1.5))
        }

        @Test func rejectsTruncatedInput() {
            let encoded = CDPCBOR.encode(.object(["method": .string("Browser.getVersion")]))
            #expect(throws: CDPCBORError.self) { try CDPCBOR.decode(encoded.dropLast(2)) }
        }

        /// Found by `FuzzCDP` (Fuzz/crashes/FuzzCDP-crash-3124588b…): 1,900 nested maps overflowed
        /// the stack of the recursive reader. Nesting is now limited as Chromium limits it.
        @Test(arguments: [0x81 as UInt8, 0xa1, 0x9f, 0xc1])  // array of 1, map of 1, open array, a tag
        func nestingDeeperThanChromiumAllowsIsATypedError(opener: UInt8) throws {
            func nested(_ depth: Int) -> Data {
                var bytes: [UInt8] = []
                for _ in 0..<depth { bytes += opener == 0xa1 ? [0xa1, 0x61, 0x6b] : [opener] }  // map: key "k"
                bytes.append(0x00)
                if opener == 0x9f { bytes += [UInt8](repeating: 0xff, count: depth) }
                return Data(bytes)
            }
            #expect(throws: CDPCBORError.tooDeep) { try CDPCBOR.decode(nested(100_000)) }
            #expect(throws: CDPCBORError.tooDeep) { try CDPCBOR.decode(nested(CDPCBOR.maximumDepth)) }
            var value = try CDPCBOR.decode(nested(CDPCBOR.maximumDepth - 1))
            for _ in 0..<(CDPCBOR.maximumDepth - 1) {
                switch value {
                case .array(let elements): value = try #require(elements.first)
                case .object(let members): value = try #require(members["k"])
                default: break  // a tag wraps nothing in the value
                }
            }
            #expect(value == .int(0))
        }

        @Test func deeplyNestedJSONIsAnErrorNotACrash() {
            let deep = Data(String(repeating: "[", count: 100_000).utf8)
            #expect(throws: (any Error).self) { try CDPJSON.decode(deep) }
        }

        @Test func jsonCarriesBinaryAsBase64() throws {
            let json = CDPJSON.encode(.object(["body": .binary(Data([0xff, 0xfe, 0x00])), "s": .string("a\"b\n/")]))
            let text = String(decoding: json, as: UTF8.self)
            #expect(text.contains("\"body\":\"//4A\""))
            #expect(text.contains(#""s":"a\"b\n/""#))
            #expect(try CDPJSON.decode(json)["body"]?.binaryData == Data([0xff, 0xfe, 0x00]))
        }

        @Test(arguments: [
            ("https://app.localhost/a/b.js?v=1", "app://localhost/a/b.js?v=1"),
            ("https://APP.localhost", "app://localhost/"),
            ("https://app.localhost?x", "app://localhost/?x"),
            ("https://app.localhost.evil/", nil),
            ("http://app.localhost/", nil),
        ])
        func mapsVirtualOriginsToRegistryURLs(url: String, expected: String?) {
            #expect(VirtualOrigin(host: "app.localhost").registryURL(for: url) == expected)
        }

        @Test func capsOpenEndedRangesOnly() {
            #expect(ChromiumSchemeAdapter.capOpenEndedRange("bytes=0-", cap: 100) == "bytes=0-99")
            #expect(ChromiumSchemeAdapter.capOpenEndedRange("bytes=500-", cap: 100) == "bytes=500-599")
            #expect(ChromiumSchemeAdapter.capOpenEndedRange("bytes=0-10", cap: 100) == nil)
            #expect(ChromiumSchemeAdapter.capOpenEndedRange("bytes=-500", cap: 100) == nil)
            #expect(ChromiumSchemeAdapter.capOpenEndedRange("bytes=0-,5-", cap: 100) == nil)
        }
    }
#endif
