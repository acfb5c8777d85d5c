#if Firefox
    import Foundation
    import SchemeKit
    import SchemeKitTesting
    import Testing

    @testable import SchemeKitFirefox

    /// Request bodies are bounded: `maximumRequestBodySize` (32 MiB by default) caps what the
    /// adapter asks Firefox for, and a body over it fails its request with a typed error naming the
    /// setting, in real headless Firefox.
    @Suite(.serialized, .timeLimit(.minutes(3)))
    struct FirefoxRequestBodyLimitTests {
        @Test func theDefaultLimitIs32MiB() {
            #expect(FirefoxAdapterConfiguration().maximumRequestBodySize == 32 << 20)
        }

        /// One byte over the limit: the page sees a network error, no handler runs, and the
        /// request's record says `bodyTooLarge`, naming `maximumRequestBodySize`. A body of exactly
        /// the limit still reaches the handler byte for byte.
        @Test func aPostBodyOverTheLimitFailsNamingTheSetting() async throws {
            let limit = 64 << 10
            let received = Received()
            let echo = ClosureHandler(name: "echo", methods: [.post]) { request, writer in
                let body = try await request.body.collect()
                received.set(body)
                try await writer.respond(.ok, mimeType: "text/plain", body: Data(String(body.count).utf8))
                return .handled
            }
            try await FirefoxHarness.with(configure: {
                $0.transport = .interception
                $0.maximumRequestBodySize = limit
            }) {
                registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(echo, for: "app", pathPrefix: "/echo")
            } _: { harness in
                try await harness.openOrigin()
                let records = harness.adapter.records()
                let outcome = try await harness.page.evaluate(
                    "fetch('/echo', {method: 'POST', body: new Uint8Array(\(limit + 1))}).then(r => 'status ' + r.status, e => e.name)"
                )
                #expect(outcome == .string("TypeError"))
                var failure: EngineError?
                for await record in records where record.url.hasSuffix("/echo") {
                    if record.outcome == .failed { failure = record.error as? EngineError }
                    break
                }
                #expect(failure?.code == .bodyTooLarge)
                #expect(failure?.message.contains("maximumRequestBodySize") == true, "\(String(describing: failure))")
                #expect(failure?.message.contains("\(limit)") == true, "\(String(describing: failure))")
                #expect(harness.adapter.statistics.bodyTooLarge == 1)
                #expect(received.value == nil, "no handler ran")
                let exact = try await harness.page.evaluate(
                    """
                    (() => { const bytes = new Uint8Array(\(limit)); for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 13) & 255;
                      return fetch('/echo', {method: 'POST', body: bytes}).then(r => r.text()); })()
                    """)
                #expect(exact == .string("\(limit)"))
                #expect(received.value == Data((0..<limit).map { UInt8(($0 * 13) & 255) }))
            }
        }
    }
#endif
