#if WebKitGTK || Chromium || Firefox
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import SchemeKitTesting
    import Testing

    /// The conformance page (`Tests/Fixtures/Conformance`: cookies, storage, the Cache API, workers of
    /// all three kinds, a service worker, WebAssembly, modules, fonts, media with a seek, ranges, a
    /// streamed read, a paused body, server-sent events, and a local backend over CORS and a
    /// WebSocket) loaded in the same engine from nginx and through SchemeKit, on each transport:
    /// every check that passes from the web server passes through SchemeKit, except the limits
    /// ``limits(_:_:)`` names, which must still fail (so the list stays true).
    ///
    /// The app's backend (`Tests/Fixtures/conformance_api.py`) is behind `/dyn/`: nginx proxies it
    /// unbuffered; through SchemeKit it is the network fallback, passing cookies both ways, as an app
    /// calling its own backend would configure it. Each run prints one line per check (`CONFORMANCE`
    /// lines), what the README's engine table reports.
    @Suite(.serialized, .timeLimit(.minutes(5)))
    struct ConformancePageTests {
        /// Checks that fail through SchemeKit because of a limit the engine sets on a transport, with
        /// the reason (the README's engine table says the same). None on the browsers' loopback https
        /// origin; on WebKitGTK's, what WebKit blocks on any https page (mixed content).
        /// Interception (attached browsers, hosts not under `.localhost`) answers each request in one
        /// protocol message, and Firefox's intercept holds no request of a worker no page owns.
        /// WebKitGTK's custom scheme is not http(s), which WebKit requires for cookies, the Cache
        /// API and service workers.
        static func limits(_ served: ServedEngine) -> [String: String] {
            switch (served.engine, served.transport) {
            case (.webkit, .loopbackOrigin):
                // Not SchemeKit's: the same page from an https web server gets the same.
                return [
                    "localBackend":
                        "WebKit blocks an https page's http:// requests as mixed content, loopback included: call the backend over https",
                    "localWebSocket":
                        "WebKit blocks an https page's ws:// connections as mixed content, loopback included: use wss",
                ]
            case (_, .loopbackOrigin):
                return [:]
            case (let engine, .interception):
                var limits = [
                    "serverSentEvents": "a response goes back in one protocol message: the events arrive together",
                    "pausedBody":
                        "a response goes back in one protocol message: nothing reaches the page before the end",
                ]
                if engine == .firefox {
                    limits["sharedWorker"] = "Firefox's network intercept does not hold a shared worker's requests"
                    limits["serviceWorker"] =
                        "Firefox's network intercept does not hold a service worker's script request"
                }
                return limits
            case (_, .customScheme):
                return [
                    "cookies": "WebKit keeps cookies for http and https pages only",
                    "cacheAPI": "WebKit's Cache API takes http and https URLs only (\"Request url is not HTTP/HTTPS\")",
                    "serviceWorker": "WebKit registers service workers for http and https scripts only",
                    "sharedWorker":
                        "a shared worker's fetch on a custom scheme fails in WebKit before it reaches the adapter",
                ]
            }
        }

        /// The page's results, or an error when its checks do not all end within two minutes (each
        /// has a deadline of its own; this one catches a page whose script never ran).
        static let results = """
            Promise.race([window.conformance,
              new Promise((_, reject) => setTimeout(() => reject(new Error('the page did not finish: ' + document.title)), 120000))])
            """

        @Test(arguments: ServedEngine.all)
        func thePageBehavesAsItDoesFromAWebServer(served: ServedEngine) async throws {
            let (engine, transport) = (served.engine, served.transport)
            let site = try ConformanceSite()
            defer { site.remove() }
            let api = try OriginProcess(script: "conformance_api.py")
            defer { api.stop() }
            let nginx = try NginxServer(root: site.directory, backend: api.port)
            defer { nginx.stop() }
            let query = "index.html?api=\(api.port)"
            let reference = try await EngineSession.withBrowser(engine) { navigate, evaluate in
                try await navigate("http://127.0.0.1:\(nginx.port)/\(query)")
                return try await evaluate(Self.results)
            }
            let backend = try #require(URL(string: "http://127.0.0.1:\(api.port)"))
            let ours = try await EngineSession.with(engine, transport: transport) { registry in
                try registry.register(LocalFileHandler(root: site.directory), for: "app")
                let forwarding = NetworkForwardingPolicy(
                    forwardedRequestFields: [.cookie], passedResponseFields: [.setCookie])
                try registry.register(
                    NetworkFallbackHandler(origin: backend, forwarding: forwarding), for: "app", pathPrefix: "/dyn")
            } _: { session in
                try await session.navigate("\(session.origin)/\(query)")
                return try await session.evaluate(Self.results)
            }
            let limits = Self.limits(served)
            let checks = try #require(reference.objectValue?.keys.sorted(), "\(reference)")
            #expect(checks.count >= 16, "\(checks)")
            for check in checks {
                let theirs = reference[check]?["ok"] == .bool(true)
                let mine = ours[check]?["ok"] == .bool(true)
                let detail = ours[check]?["detail"].map { "\($0)" } ?? "missing"
                print(
                    "CONFORMANCE \(engine) \(transport) \(check): nginx \(theirs ? "pass" : "FAIL"), SchemeKit \(mine ? "pass" : "FAIL") — \(detail)"
                )
                if let limit = limits[check] {
                    #expect(!mine, "\(check) is listed as \(engine)'s limit (\(limit)) but passes: update the list")
                } else if theirs {
                    #expect(mine, "\(check) passes from nginx and fails through SchemeKit on \(engine): \(detail)")
                }
            }
        }
    }

    /// The conformance page's files in a scratch directory: `Tests/Fixtures/Conformance`, plus what
    /// is made for the run (an 8.5 MiB `big.bin`, `add.wasm`) or taken from the sample app (its web
    /// font and its video).
    struct ConformanceSite {
        let directory: URL

        init() throws {
            let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            let samples = fixtures.deletingLastPathComponent().appendingPathComponent("Samples/app")
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID())")
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("Fixtures/Conformance"), to: directory)
            try FileManager.default.copyItem(
                at: samples.appendingPathComponent("fonts/dejavu-sans-subset.woff2"),
                to: directory.appendingPathComponent("font.woff2"))
            try FileManager.default.copyItem(
                at: samples.appendingPathComponent("media/clip.webm"), to: directory.appendingPathComponent("clip.webm")
            )
            try Data((0..<8_912_896).map { UInt8($0 % 251) }).write(to: directory.appendingPathComponent("big.bin"))
            // (module (func (export "add") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add))
            let wasm: [UInt8] = [
                0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x07, 0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f,
                0x03, 0x02, 0x01, 0x00, 0x07, 0x07, 0x01, 0x03, 0x61, 0x64, 0x64, 0x00, 0x00, 0x0a, 0x09, 0x01, 0x07,
                0x00, 0x20, 0x00, 0x20, 0x01, 0x6a, 0x0b,
            ]
            try Data(wasm).write(to: directory.appendingPathComponent("add.wasm"))
        }

        func remove() {
            try? FileManager.default.removeItem(at: directory)
        }
    }
#endif
