#if Chromium
    import Crypto
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import SchemeKitTesting
    import Testing

    @testable import SchemeKitChromium

    @Suite(.serialized, .timeLimit(.minutes(3)))
    struct ChromiumLargeBodyAndWorkerTests {
        /// A 150 MiB file of varied bytes, made once per test run.
        static let bigFile: (directory: URL, digest: String) = {
            // LocalFileHandler serves the request path under its root: the file is at <root>/big/big.bin.
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schemekit-chromium-big")
            try? FileManager.default.createDirectory(
                at: directory.appendingPathComponent("big"), withIntermediateDirectories: true)
            let file = directory.appendingPathComponent("big/big.bin")
            var hasher = SHA256()
            var block = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
            _ = FileManager.default.createFile(atPath: file.path, contents: nil)
            let handle = try! FileHandle(forWritingTo: file)
            for index in 0..<150 {
                block.replaceSubrange(0..<8, with: withUnsafeBytes(of: UInt64(index).littleEndian) { Data($0) })
                hasher.update(data: block)
                handle.write(block)
            }
            try? handle.close()
            return (directory, hasher.finalize().map { String(format: "%02x", $0) }.joined())
        }()

        static let digestScript = """
            fetch('/big/big.bin', {cache: 'no-store'}).then(r => r.arrayBuffer())
              .then(b => crypto.subtle.digest('SHA-256', b))
              .then(h => Array.from(new Uint8Array(h)).map(x => x.toString(16).padStart(2, '0')).join(''), e => e.name)
            """

        @Test func a150MiBFileArrivesIntactOverCBOR() async throws {
            let (directory, digest) = Self.bigFile
            try await ChromiumHarness.with(
                wireFormat: .cbor, configure: { $0.maximumCBORBodySize = 160 << 20 }
            ) { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(LocalFileHandler(root: directory), for: "app", pathPrefix: "/big")
            } _: { harness in
                try await harness.openOrigin()
                // The blank page's answer is counted once Chromium took it, maybe after the load event.
                #expect(await eventually { harness.adapter.statistics.answered == 1 })
                let before = harness.adapter.statistics.bytesAnswered
                #expect(try await harness.page.evaluate(Self.digestScript) == .string(digest))
                #expect(
                    await eventually { harness.adapter.statistics.bytesAnswered - before == 150 << 20 },
                    "\(harness.adapter.statistics)")
            }
        }

        @Test func over150MiBOnJSONFailsTheRequestNotTheConnection() async throws {
            let (directory, _) = Self.bigFile
            try await ChromiumHarness.with(
                wireFormat: .json, configure: { $0.transport = .interception }
            ) { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(LocalFileHandler(root: directory), for: "app", pathPrefix: "/big")
            } _: { harness in
                let records = harness.adapter.records()
                try await harness.openOrigin()
                #expect(try await harness.page.evaluate(Self.digestScript) == .string("TypeError"))
                let statistics = harness.adapter.statistics
                #expect(statistics.bodyTooLarge == 1, "\(statistics)")
                var sawTypedError = false
                for await record in records where record.url.hasSuffix("big.bin") {
                    if record.outcome == .failed {
                        sawTypedError = (record.error as? EngineError)?.code == .bodyTooLarge
                    }
                    break
                }
                #expect(sawTypedError)
                // The connection is alive and the registry is settled.
                #expect(try await harness.browser.version().hasPrefix("Chrome/"))
                #expect(try await harness.page.evaluate("fetch('/blank.html').then(r => r.status)") == .number(200))
                #expect(await eventually { harness.registry.metrics.live == 0 })
            }
        }

        /// With interception a response goes back in one message: a media element's open-ended range
        /// is narrowed to the cap so media plays in parts, while any other request's open-ended range
        /// is answered as asked (a `fetch()` that reads on from byte 1000 gets every byte left).
        @Test func interceptionNarrowsOnlyAMediaElementsOpenEndedRange() async throws {
            let (directory, _) = Self.bigFile
            try await ChromiumHarness.with(configure: {
                $0.transport = .interception
                $0.openEndedRangeCap = 1 << 20
                $0.maximumCBORBodySize = 160 << 20
            }) { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(LocalFileHandler(root: directory), for: "app", pathPrefix: "/big")
            } _: { harness in
                let records = harness.adapter.records()
                try await harness.openOrigin()
                let answer = try await harness.page.evaluate(
                    """
                    fetch('/big/big.bin', {headers: {Range: 'bytes=1000-'}, cache: 'no-store'})
                      .then(async r => [r.status, (await r.arrayBuffer()).byteLength, r.headers.get('content-range')])
                    """)
                let size = 150 << 20
                #expect(
                    answer
                        == .array([
                            .number(206), .number(Double(size - 1000)), .string("bytes 1000-\(size - 1)/\(size)"),
                        ]))
                _ = try await harness.page.evaluate(
                    "const v = document.createElement('video'); v.preload = 'auto'; v.src = '/big/big.bin'; document.body.append(v); true"
                )
                var media: SchemeRequestRecord?
                for await record in records where record.resourceType == "Media" {
                    media = record
                    break
                }
                #expect(media?.status == 206)
                #expect((media?.bytes ?? .max) <= 1 << 20, "\(String(describing: media))")
            }
        }

        @Test func aServiceWorkerRegistersAndItsFetchesAreServed() async throws {
            let worker = """
                self.addEventListener('install', () => self.skipWaiting());
                self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
                self.addEventListener('fetch', (event) => {
                  if (new URL(event.request.url).pathname === '/via-worker')
                    event.respondWith(fetch('/worker-data').then((r) => r.text()).then((t) => new Response('worker:' + t)));
                });
                """
            let data = CountingHandler(StaticHandler("from-schemekit", name: "worker-data"))
            let script = CountingHandler(StaticHandler(worker, mimeType: "text/javascript", name: "sw"))
            try await ChromiumHarness.with { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(script, for: "app", pathPrefix: "/sw.js")
                try registry.register(data, for: "app", pathPrefix: "/worker-data")
            } _: { harness in
                try await harness.openOrigin()
                let registered = try await harness.page.evaluate(
                    """
                    navigator.serviceWorker.register('/sw.js')
                      .then(() => navigator.serviceWorker.ready)
                      .then(() => navigator.serviceWorker.controller ? null
                        : new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve)))
                      .then(() => 'registered')
                    """)
                #expect(registered == .string("registered"))
                #expect(script.handled == 1, "registering fetched the worker's script once")
                #expect(
                    try await harness.page.evaluate("fetch('/via-worker').then(r => r.text())")
                        == .string("worker:from-schemekit"))
                #expect(data.handled == 1)
            }
        }

        @Test func killingChromiumMidLoadThrowsEveryPendingCommandAndEndsEveryTask() async throws {
            let hanging = HangingHandler(writesHead: false)
            let page = StaticHandlerPage.html(
                "<!doctype html><link rel=icon href='data:,'><script src='/hang/script.js'></script><img src='/hang/a.png'>"
            )
            try await ChromiumHarness.with { registry in
                try registry.register(page, for: "app", pathPrefix: "/page.html")
                try registry.register(hanging, for: "app", pathPrefix: "/hang")
            } _: { harness in
                let navigation = Task { try await harness.page.navigate(to: "https://app.localhost/page.html") }
                #expect(await eventually { hanging.started >= 1 })
                let evaluation = Task { try await harness.page.evaluate("new Promise(() => {})") }
                // The evaluation is out, waiting for an answer that never comes.
                #expect(await eventually { harness.browser.connection.pendingCommands("Runtime.evaluate") == 1 })
                harness.browser.kill()
                for task in [navigation, Task { _ = try await evaluation.value }] {
                    await #expect {
                        try await task.value
                    } throws: { error in
                        (error as? EngineError)?.code == .disconnected
                    }
                }
                #expect(await eventually { harness.registry.metrics.live == 0 })
                #expect(hanging.cancellations == hanging.started)
            }
        }
    }
#endif
