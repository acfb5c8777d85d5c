#if Chromium
    import Foundation
    import SchemeKit
    import Testing

    #if canImport(Glibc)
        import CoreFoundation
    #endif

    @testable import SchemeKitChromium
    import SchemeKitBrowserSupport

    /// What decoding `Fetch.requestPaused` costs the adapter, without Chromium: the one decode per
    /// request against the JSON round trip it replaced, and the adapter's process CPU per request
    /// over a fake transport. Runs only when `SCHEMEKIT_CHROMIUM_BENCH=1` or
    /// `SCHEMEKIT_CHROMIUM_DECODE_BENCH=1`; prints `BENCH` lines.
    @Suite(.serialized)
    struct ChromiumDecodeBenchmark {
        static let environment = ProcessInfo.processInfo.environment
        static let enabled =
            environment["SCHEMEKIT_CHROMIUM_BENCH"] == "1" || environment["SCHEMEKIT_CHROMIUM_DECODE_BENCH"] == "1"

        /// A paused request as Chromium sends one for a page's script, read back from CBOR.
        static func pausedParams(_ id: String) throws -> CDPValue {
            let headers: [String: CDPValue] = [
                "Accept": .string("*/*"), "Referer": .string("https://app.localhost/index.html"),
                "User-Agent": .string(
                    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/142.0.0.0 Safari/537.36"
                ),
                "sec-ch-ua": .string("\"Chromium\";v=\"142\", \"Not_A Brand\";v=\"99\""),
                "sec-ch-ua-mobile": .string("?0"), "sec-ch-ua-platform": .string("\"Linux\""),
                "Accept-Language": .string("en-US"), "Origin": .string("https://app.localhost"),
            ]
            let params: CDPValue = .object([
                "requestId": .string(id), "frameId": .string("8A0F2C1B7D3E4F5A6B7C8D9E0F1A2B3C"),
                "resourceType": .string("Script"), "networkId": .string("12345.67"),
                "request": .object([
                    "url": .string("https://app.localhost/js/app-\(id).js"), "method": .string("GET"),
                    "headers": .object(headers), "initialPriority": .string("High"),
                    "referrerPolicy": .string("strict-origin-when-cross-origin"), "isSameSite": .bool(true),
                ]),
            ])
            return try CDPCBOR.decode(
                CDPCBOR.encode(.object(["method": .string("Fetch.requestPaused"), "params": params])))[
                    "params"]!
        }

        static func threadCPUSeconds() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }

        /// The decode alone, both ways, in one run, alternating rounds.
        @Test(.enabled(if: enabled)) func decodeOnceAgainstTheJSONRoundTrip() throws {
            let event = CDPEvent(method: "Fetch.requestPaused", params: try Self.pausedParams("42"), sessionId: nil)
            let count = 5000
            var roundTrip = 0.0
            var once = 0.0
            for _ in 0..<3 {
                var start = Self.threadCPUSeconds()
                for _ in 0..<count { _ = try event.decode(CDP.RequestPaused.self) }
                roundTrip += Self.threadCPUSeconds() - start
                start = Self.threadCPUSeconds()
                for _ in 0..<count { _ = try CDP.RequestPaused(params: event.params) }
                once += Self.threadCPUSeconds() - start
            }
            let decoded = try CDP.RequestPaused(params: event.params)
            let reference = try event.decode(CDP.RequestPaused.self)
            #expect(
                decoded.request.url == reference.request.url && decoded.request.headers == reference.request.headers)
            print(
                String(
                    format: "BENCH requestPaused decode: JSON round trip %.2f µs, once from CDPValue %.2f µs (%.1fx)",
                    roundTrip * 1e6 / Double(3 * count), once * 1e6 / Double(3 * count), roundTrip / once))
        }

        /// The adapter's process CPU per request: a paused request fed in, answered by a 1 KiB
        /// handler, fulfilled to the fake transport.
        @Test(.enabled(if: enabled), .timeLimit(.minutes(2))) func adapterCPUPerRequest() async throws {
            let (connection, transport) = FakeChromiumTransport.connection(wireFormat: .cbor)
            let registry = SchemeRegistry()
            let body = Data(count: 1024)
            try registry.register(
                ClosureHandler(name: "kib") { _, writer in
                    try await writer.respond(SchemeResponse(status: .ok, mimeType: "text/javascript"), body: body)
                    return .handled
                }, for: "app")
            let adapter = ChromiumSchemeAdapter(
                registry: registry, connection: connection,
                configuration: ChromiumAdapterConfiguration(origins: [ChromiumHarness.origin]))
            try await adapter.start()
            let count = 4000
            let messages = try (0..<count).map { index in
                CDPValue.object([
                    "method": .string("Fetch.requestPaused"), "params": try Self.pausedParams("r\(index)"),
                ])
            }
            let start = ChromiumBenchmark.cpuSeconds()
            for (index, message) in messages.enumerated() {
                connection.receive(message)
                if index % 100 == 99 {
                    _ = await ChromiumHarness.eventually(.seconds(30)) { adapter.statistics.answered > index - 50 }
                }
            }
            #expect(await ChromiumHarness.eventually(.seconds(60)) { adapter.statistics.answered == count })
            let cpu = ChromiumBenchmark.cpuSeconds() - start
            #expect(transport.sent("Fetch.fulfillRequest").count == count)
            print(
                String(
                    format: "BENCH adapter process CPU per request over a fake transport: %.1f µs (%d requests)",
                    cpu * 1e6 / Double(count), count))
            await adapter.stop()
        }
    }
#endif
