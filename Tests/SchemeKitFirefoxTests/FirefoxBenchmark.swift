#if Firefox
    import Foundation
    import SchemeKit
    import Testing

    @testable import SchemeKitFirefox

    #if Chromium
        import SchemeKitChromium
        import SchemeKitBrowserSupport
    #endif

    /// The figures behind `Benchmarks/firefox.sh`: `fetch()` latency at 1 KiB, 64 KiB, 1 MiB and
    /// 10 MiB through the Firefox adapter, the Chromium adapter (CBOR pipe) and nginx (from each
    /// browser), side by side in one run; then cold and pooled page loads of the sample app in
    /// Firefox, with nginx serving the same app to the same pooled page.
    /// Runs only when `SCHEMEKIT_FIREFOX_BENCH=1` (the script sets it and starts nginx).
    @Suite(.serialized)
    struct FirefoxBenchmark {
        static let environment = ProcessInfo.processInfo.environment
        static let sizes: [(name: String, bytes: Int, samples: Int)] = [
            ("1k", 1 << 10, 20), ("64k", 64 << 10, 20), ("1m", 1 << 20, 8), ("10m", 10 << 20, 3),
        ]

        /// `count` sequential fetches of one file; the time of each, in milliseconds.
        static let measure = """
            async (base, name, count) => {
              const times = [];
              for (let i = 0; i < count; i++) {
                const start = performance.now();
                const response = await fetch(base + name + '?r=' + Math.random(), {cache: 'no-store'});
                const length = (await response.arrayBuffer()).byteLength;
                if (!response.ok || length === 0) throw new Error(base + name + ' ' + response.status);
                times.push(performance.now() - start);
              }
              return times;
            }
            """

        /// `count` new `<video preload="auto" muted>` elements of a 10 s clip: ms from `src` to
        /// `loadedmetadata`, and from `currentTime = 8` to `seeked`, for each.
        static let media = """
            async (base, count) => {
              const once = (element, name) => new Promise((resolve, reject) => {
                element.addEventListener(name, resolve, {once: true});
                element.addEventListener('error', () => reject(new Error('media error ' + element.error?.code)), {once: true});
              });
              const samples = [];
              for (let i = 0; i < count; i++) {
                const video = document.createElement('video');
                video.muted = true; video.preload = 'auto';
                document.body.append(video);
                let start = performance.now();
                const metadata = once(video, 'loadedmetadata');
                video.src = base + 'clip.webm?r=' + Math.random();
                await metadata;
                const toMetadata = performance.now() - start;
                start = performance.now();
                const seeked = once(video, 'seeked');
                video.currentTime = 8;
                await seeked;
                samples.push(toMetadata, performance.now() - start);
                video.removeAttribute('src'); video.load(); video.remove();
              }
              return samples;
            }
            """

        /// One way to run the measuring script in a page.
        struct Peer: Sendable {
            let name: String
            let run: @Sendable (String) async throws -> [Double]
            let base: String
        }

        @Test(.enabled(if: environment["SCHEMEKIT_FIREFOX_BENCH"] == "1"), .timeLimit(.minutes(30)))
        func fetchLatencyAndPageLoads() async throws {
            let directory = URL(
                fileURLWithPath: Self.environment["SCHEMEKIT_BENCH_DIR"] ?? "/tmp/schemekit-firefox-bench")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for size in Self.sizes
            where !FileManager.default.fileExists(atPath: directory.appendingPathComponent(size.name).path) {
                try Data((0..<size.bytes).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(
                    to: directory.appendingPathComponent(size.name))
            }
            try Data("<!doctype html><title>blank</title>".utf8).write(
                to: directory.appendingPathComponent("blank.html"))
            let destination = directory.appendingPathComponent("sample")
            try? FileManager.default.removeItem(at: destination)
            try FileManager.default.copyItem(at: FirefoxHarness.sampleApp, to: destination)
            let rounds = Int(Self.environment["SCHEMEKIT_BENCH_ROUNDS"] ?? "5") ?? 5
            let nginx = Self.environment["SCHEMEKIT_BENCH_NGINX"]
            let registry = SchemeRegistry()
            try registry.register(LocalFileHandler(root: directory), for: "app")

            // Firefox, its timer at full precision (it rounds `performance.now()` to 1 ms by default).
            let profile = FileManager.default.temporaryDirectory.appendingPathComponent("firefox-bench-\(UUID())")
            try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: profile) }
            try Data(#"user_pref("privacy.reduceTimerPrecision", false);"#.utf8).write(
                to: profile.appendingPathComponent("user.js"))
            let firefox = try await FirefoxBrowser.launch(FirefoxLaunchOptions(profileDirectory: profile))
            let adapter = FirefoxSchemeAdapter(
                registry: registry, browser: firefox,
                configuration: FirefoxAdapterConfiguration(origins: [FirefoxHarness.origin]))
            try await adapter.start()
            var peers: [Peer] = []
            func firefoxPeer(_ name: String, base: String) async throws -> Peer {
                let page = try await firefox.newPage()
                try await page.navigate(to: base + "blank.html")
                return Peer(
                    name: name,
                    run: { script in try await page.evaluate(script).decode(as: [Double].self) }, base: base)
            }
            peers.append(try await firefoxPeer("firefox-adapter", base: "https://app.localhost/"))
            if let nginx { peers.append(try await firefoxPeer("firefox-nginx", base: nginx + "/")) }
            #if Chromium
                let chromium = try await ChromiumBrowser.launch()
                let chromiumAdapter = ChromiumSchemeAdapter(
                    registry: registry, browser: chromium,
                    configuration: ChromiumAdapterConfiguration(
                        origins: [VirtualOrigin(host: "app.localhost")]))
                try await chromiumAdapter.start()
                func chromiumPeer(_ name: String, base: String) async throws -> Peer {
                    let page = try await chromium.newPage()
                    try await page.navigate(to: base + "blank.html")
                    return Peer(
                        name: name,
                        run: { script in
                            guard case .array(let values) = try await page.evaluate(script) else { return [] }
                            return values.compactMap(\.doubleValue)
                        }, base: base)
                }
                peers.append(try await chromiumPeer("chromium-adapter", base: "https://app.localhost/"))
                if let nginx { peers.append(try await chromiumPeer("chromium-nginx", base: nginx + "/")) }
            #endif

            var samples: [String: [Double]] = [:]
            for peer in peers { _ = try await peer.run("(\(Self.measure))('\(peer.base)', '1m', 2)") }  // warm-up
            // The adapter's record of each request: from `network.beforeRequestSent` to Firefox's
            // answer to `network.provideResponse` (Firefox took the body).
            let recordStream = adapter.records(bufferLimit: 1 << 20)
            let recordCollector = Task {
                var durations: [String: [Double]] = [:]
                for await record in recordStream {
                    let name = String(record.url.split(separator: "/").last?.split(separator: "?").first ?? "")
                    durations[name, default: []].append(Self.milliseconds(record.duration))
                }
                return durations
            }
            for _ in 0..<rounds {
                for size in Self.sizes {
                    for peer in peers.shuffled() {
                        let times = try await peer.run(
                            "(\(Self.measure))('\(peer.base)', '\(size.name)', \(size.samples))")
                        samples["\(peer.name) \(size.name)", default: []] += times
                    }
                }
            }
            recordCollector.cancel()
            let durations = await recordCollector.value
            print("BENCH fetch latency in ms (median, p90) over \(rounds) interleaved rounds")
            for size in Self.sizes {
                for peer in peers {
                    guard let values = samples["\(peer.name) \(size.name)"] else { continue }
                    let browser = peer.name.split(separator: "-")[0]
                    let baseline = samples["\(browser)-nginx \(size.name)"].map { Self.percentile($0, 0.5) }
                    let median = Self.percentile(values, 0.5)
                    let ratio =
                        baseline.map { String(format: " ratio-to-%@-nginx=%.2f", String(browser), median / $0) } ?? ""
                    print(
                        String(
                            format: "BENCH %@ %@ median=%.2f p90=%.2f n=%d%@", size.name, peer.name, median,
                            Self.percentile(values, 0.9), values.count, ratio))
                }
            }

            // Where a large body's time goes in the adapter's process: reading it through the
            // registry, writing the message (base64), against the whole exchange the record timed.
            for size in Self.sizes where size.bytes >= 1 << 20 {
                let clock = ContinuousClock()
                var reads: [Double] = []
                var writes: [Double] = []
                for _ in 0..<5 {
                    var body = Data()
                    reads.append(
                        Self.milliseconds(
                            try await clock.measure {
                                body = try await registry.response(
                                    for: SchemeRequest("app://localhost/\(size.name)"), limit: 64 << 20
                                ).body
                            }))
                    writes.append(
                        Self.milliseconds(
                            clock.measure {
                                var writer = BiDiJSONWriter(capacity: body.count / 3 * 4 + 1024)
                                writer.write([
                                    "id": 1, "method": "network.provideResponse",
                                    "params": ["body": ["type": "base64", "value": .binary(body)]],
                                ])
                            }))
                }
                print(
                    String(
                        format:
                            "BENCH firefox %@ breakdown: in-page median=%.1f; adapter record (event to Firefox's answer) median=%.1f; registry read median=%.1f; message write median=%.1f",
                        size.name, Self.percentile(samples["firefox-adapter \(size.name)"] ?? [], 0.5),
                        Self.percentile(durations[size.name] ?? [], 0.5), Self.percentile(reads, 0.5),
                        Self.percentile(writes, 0.5)))
            }

            // Media, when the script made the clip: the Firefox adapter against nginx from Firefox.
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("clip.webm").path) {
                var metadata: [String: [Double]] = [:]
                var seeks: [String: [Double]] = [:]
                let firefoxPeers = peers.filter { $0.name.hasPrefix("firefox") }
                for peer in firefoxPeers { _ = try await peer.run("(\(Self.media))('\(peer.base)', 1)") }  // warm-up
                for _ in 0..<rounds {
                    for peer in firefoxPeers.shuffled() {
                        let values = try await peer.run("(\(Self.media))('\(peer.base)', 5)")
                        for (index, value) in values.enumerated() {
                            if index % 2 == 0 {
                                metadata[peer.name, default: []].append(value)
                            } else {
                                seeks[peer.name, default: []].append(value)
                            }
                        }
                    }
                }
                for peer in firefoxPeers {
                    print(
                        String(
                            format:
                                "BENCH media %@ src->loadedmetadata median=%.1f p90=%.1f; seek->seeked median=%.1f p90=%.1f (n=%d)",
                            peer.name, Self.percentile(metadata[peer.name] ?? [], 0.5),
                            Self.percentile(metadata[peer.name] ?? [], 0.9),
                            Self.percentile(seeks[peer.name] ?? [], 0.5),
                            Self.percentile(seeks[peer.name] ?? [], 0.9), metadata[peer.name]?.count ?? 0))
                }
            }

            // Page loads in Firefox: a new page each time versus a pooled page, the sample app from
            // the adapter; then the same app from nginx on the same pooled page (Firefox's own share).
            let pool = firefox.makePagePool(configuration: SessionPoolConfiguration(warmCount: 1, maximumCount: 1))
            await pool.start()
            let holder = Holder()
            let sample = "https://app.localhost/sample/index.html"
            var cold: [Double] = []
            var warm: [Double] = []
            var http: [Double] = []
            var blank: [Double] = []
            for _ in 0..<max(rounds, 5) {
                let clock = ContinuousClock()
                cold.append(
                    Self.milliseconds(
                        try await clock.measure {
                            let page = try await firefox.newPage()
                            try await page.navigate(to: sample)
                            try await page.close()
                        }))
                let page = try await pool.acquire(for: holder)
                blank.append(
                    Self.milliseconds(
                        try await clock.measure { try await page.navigate(to: "https://app.localhost/blank.html") }))
                warm.append(Self.milliseconds(try await clock.measure { try await page.navigate(to: sample) }))
                if let nginx {
                    try await page.navigate(to: nginx + "/blank.html")
                    http.append(
                        Self.milliseconds(
                            try await clock.measure { try await page.navigate(to: nginx + "/sample/index.html") }))
                }
                try await pool.recycle(page)
            }
            print(
                String(
                    format:
                        "BENCH firefox page load cold median=%.1f p90=%.1f pooled median=%.1f p90=%.1f ratio=%.2f; pooled blank page median=%.1f; pooled from nginx median=%.1f (adapter/nginx %.2f)",
                    Self.percentile(cold, 0.5), Self.percentile(cold, 0.9), Self.percentile(warm, 0.5),
                    Self.percentile(warm, 0.9), Self.percentile(cold, 0.5) / Self.percentile(warm, 0.5),
                    Self.percentile(blank, 0.5), http.isEmpty ? 0 : Self.percentile(http, 0.5),
                    http.isEmpty ? 0 : Self.percentile(warm, 0.5) / Self.percentile(http, 0.5)))
            print("BENCH firefox adapter \(adapter.statistics)")
            await pool.shutDown()
            await adapter.stop()
            await firefox.close()
            #if Chromium
                await chromiumAdapter.stop()
                await chromium.close()
            #endif
        }

        static func percentile(_ values: [Double], _ fraction: Double) -> Double {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return .nan }
            return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
        }

        static func milliseconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        }
    }
#endif
