#if Chromium
    import Foundation
    import SchemeKit
    import Testing

    @testable import SchemeKitChromium
    import SchemeKitBrowserSupport

    /// `Fetch.requestPaused` read straight from the protocol value agrees with the `Decodable`
    /// round trip it replaced, on both wire formats' shapes, and refuses what that refused.
    struct CDPRequestPausedDecodingTests {
        static let full: CDPValue = .object([
            "requestId": .string("interception-job-3.0"), "frameId": .string("F1"), "resourceType": .string("Fetch"),
            "networkId": .string("77.1"), "responseStatusCode": .null,
            "request": .object([
                "url": .string("https://app.localhost/api"), "urlFragment": .string("#top"), "method": .string("POST"),
                "headers": .object(["Content-Type": .string("application/octet-stream")]),
                "postData": .string("ab"), "hasPostData": .bool(true),
                "postDataEntries": .array([.object(["bytes": .string("YWI=")]), .object([:])]),
                "isSameSite": .bool(true),
            ]),
        ])

        static func same(_ a: CDP.RequestPaused, _ b: CDP.RequestPaused) -> Bool {
            a.requestId == b.requestId && a.frameId == b.frameId && a.resourceType == b.resourceType
                && a.networkId == b.networkId && a.responseStatusCode == b.responseStatusCode
                && a.request.url == b.request.url && a.request.urlFragment == b.request.urlFragment
                && a.request.method == b.request.method && a.request.headers == b.request.headers
                && a.request.postData == b.request.postData && a.request.hasPostData == b.request.hasPostData
                && a.request.postDataEntries?.map(\.bytes) == b.request.postDataEntries?.map(\.bytes)
        }

        @Test func agreesWithTheDecodableRoundTrip() throws {
            let once = try CDP.RequestPaused(params: Self.full)
            #expect(Self.same(once, try Self.full.decode(as: CDP.RequestPaused.self)))
            #expect(once.request.postDataEntries?.first?.bytes == "YWI=")
        }

        /// CBOR carries `postDataEntries[].bytes` as raw bytes: read as the base64 JSON would carry.
        @Test func binaryBytesReadAsBase64() throws {
            var request = Self.full["request"]!
            if case .object(var fields) = request {
                fields["postDataEntries"] = .array([.object(["bytes": .binary(Data("ab".utf8))])])
                request = .object(fields)
            }
            guard case .object(var members) = Self.full else { return }
            members["request"] = request
            let once = try CDP.RequestPaused(params: .object(members))
            #expect(once.request.postDataEntries?.first?.bytes == "YWI=")
        }

        @Test(arguments: [
            ("requestId", CDPValue.int(1)), ("frameId", .int(2)), ("request", .string("x")),
            ("responseStatusCode", .string("200")),
        ])
        func aFieldOfTheWrongTypeIsRefused(field: String, value: CDPValue) {
            guard case .object(var members) = Self.full else { return }
            members[field] = value
            #expect(throws: EngineError.self) { try CDP.RequestPaused(params: .object(members)) }
            #expect(throws: (any Error).self) { try CDPValue.object(members).decode(as: CDP.RequestPaused.self) }
        }

        @Test func aHeaderThatIsNotAStringIsRefused() {
            guard case .object(var members) = Self.full, case .object(var request) = members["request"]! else { return }
            request["headers"] = .object(["X": .int(1)])
            members["request"] = .object(request)
            #expect(throws: EngineError.self) { try CDP.RequestPaused(params: .object(members)) }
        }
    }
#endif
