#if Chromium
    import Foundation
    import SchemeKit
    import Testing

    @testable import SchemeKitChromium

    /// The figures behind `Benchmarks/chromium.sh`: `fetch()` latency through the adapter (CBOR and
    /// JSON), schemeserve and nginx from the same Chromium, and cold versus pooled page loads.
    /// Runs only when `SCHEMEKIT_CHROMIUM_BENCH=1` (the script sets it and starts the peers).
    @Suite(.serialized)
    struct ChromiumBenchmark {
        static let environment = ProcessInfo.processInfo.environment
        static let sizes: [(name: String, bytes: Int, samples: Int)] = [
            ("1k", 1 << 10, 20), ("64k", 64 << 10, 20), ("1m", 1 << 20, 8), ("10m", 10 << 20, 3),
        ]

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

        struct Peer {
            let name: String
            let base: String
            /// Evaluates an expression in the peer's page.
            let evaluate: @Sendable (String) async throws -> JavaScriptValue
        }

        @Test(.enabled(if: environment["SCHEMEKIT_CHROMIUM_BENCH"] == "1"), .timeLimit(.minutes(30)))
        func fetchLatencyAndPageLoads() async throws {
            let directory = URL(
                fileURLWithPath: Self.environment["SCHEMEKIT_BENCH_DIR"] ?? "/tmp/schemekit-chromium-bench")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for size in Self.sizes
            where !FileManager.default.fileExists(atPath: directory.appendingPathComponent(size.name).path) {
                try Data((0..<size.bytes).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(
                    to: directory.appendingPathComponent(size.name))
            }
            try Data("<!doctype html><title>blank</title>".utf8).write(
                to: directory.appendingPathComponent("blank.html"))
            let rounds = Int(Self.environment["SCHEMEKIT_BENCH_ROUNDS"] ?? "5") ?? 5
            let registry = SchemeRegistry()
            try registry.register(LocalFileHandler(root: directory), for: "app")
            // The sample app twice under the directory (a route's prefix is part of the path the
            // handler looks up): `/sample/` as the file handler serves it by default (`no-cache`),
            // and `/cached/` as an offline package the browser may keep (what headless-render serves).
            for copy in ["sample", "cached"] {
                let destination = directory.appendingPathComponent(copy)
                try? FileManager.default.removeItem(at: destination)
                try FileManager.default.copyItem(at: ChromiumHarness.sampleApp, to: destination)
            }
            try registry.register(
                LocalFileHandler(
                    configuration: .init(root: .directory(directory), cacheControl: "max-age=31536000, immutable")),
                for: "app", pathPrefix: "/cached")
            let origin = ChromiumHarness.origin
            var browsers: [ChromiumBrowser] = []
            var adapters: [ChromiumSchemeAdapter] = []
            var peers: [Peer] = []
            for format in ChromiumWireFormat.allCases {
                let browser = try await ChromiumBrowser.launch(ChromiumLaunchOptions(wireFormat: format))
                let adapter = ChromiumSchemeAdapter(
                    registry: registry, browser: browser,
                    configuration: ChromiumAdapterConfiguration(origins: [origin]))
                try await adapter.start()
                browsers.append(browser)
                adapters.append(adapter)
                let page = try await browser.newPage()
                try await page.navigate(to: "https://app.localhost/blank.html")
                peers.append(
                    Peer(name: "adapter-\(format.rawValue)", base: "https://app.localhost/") {
                        try await page.evaluate($0)
                    })
            }
            for (name, variable) in [
                ("schemeserve", "SCHEMEKIT_BENCH_SCHEMESERVE"), ("nginx", "SCHEMEKIT_BENCH_NGINX"),
            ] {
                guard let base = Self.environment[variable] else { continue }
                let page = try await browsers[0].newPage()
                try await page.navigate(to: base + "/blank.html")
                peers.append(Peer(name: name, base: base + "/") { try await page.evaluate($0) })
            }
            // Playwright's route.fulfill at the same virtual origin, in a Chromium of its own (the
            // same binary), when chromium.sh found Playwright for Python.
            var playwright: PlaywrightPeer?
            if let script = Self.environment["SCHEMEKIT_BENCH_PLAYWRIGHT"] {
                let peer = try PlaywrightPeer(script: script, directory: directory)
                playwright = peer
                peers.append(Peer(name: "playwright", base: "https://app.localhost/") { try await peer.evaluate($0) })
            }

            var samples: [String: [Double]] = [:]
            var adapterCPU: Double = 0
            var adapterRequests = 0
            // Warm-up round, not recorded.
            for peer in peers { _ = try await peer.evaluate("(\(Self.measure))('\(peer.base)', '1m', 2)") }
            for _ in 0..<rounds {
                for size in Self.sizes {
                    for peer in peers.shuffled() {
                        let cpu = Self.cpuSeconds()
                        let times = try await peer.evaluate(
                            "(\(Self.measure))('\(peer.base)', '\(size.name)', \(size.samples))")
                        if peer.name.hasPrefix("adapter") {
                            adapterCPU += Self.cpuSeconds() - cpu
                            adapterRequests += size.samples
                        }
                        if case .array(let values) = times {
                            samples["\(peer.name) \(size.name)", default: []] += values.compactMap(\.doubleValue)
                        }
                    }
                }
            }
            print("BENCH fetch latency in ms (median, p90) over \(rounds) interleaved rounds")
            for size in Self.sizes {
                let baseline = samples["nginx \(size.name)"].map { Self.percentile($0, 0.5) }
                let playwrightMedian = samples["playwright \(size.name)"].map { Self.percentile($0, 0.5) }
                for peer in peers {
                    guard let values = samples["\(peer.name) \(size.name)"] else { continue }
                    let median = Self.percentile(values, 0.5)
                    var ratio = baseline.map { String(format: " ratio-to-nginx=%.2f", median / $0) } ?? ""
                    if let playwrightMedian, peer.name != "playwright" {
                        ratio += String(format: " ratio-to-playwright=%.2f", median / playwrightMedian)
                    }
                    print(
                        String(
                            format: "BENCH %@ %@ median=%.2f p90=%.2f n=%d%@", size.name, peer.name, median,
                            Self.percentile(values, 0.9), values.count, ratio))
                }
            }
            print(
                String(
                    format: "BENCH adapter process CPU per adapter request: %.3f ms (%d requests, all sizes)",
                    adapterCPU * 1000 / Double(max(adapterRequests, 1)), adapterRequests))

            // Page loads: a new page each time versus a pooled page.
            let pool = browsers[0].makePagePool(configuration: SessionPoolConfiguration(warmCount: 1, maximumCount: 1))
            await pool.start()
            let holder = Holder()
            // Two regimes, as for WebKit: every file asked for on every load (`no-cache`, the
            // default), and files the browser may keep (`immutable`). A blank page gives the floor
            // of a navigation itself.
            for (regime, sample) in [
                ("no-cache", "https://app.localhost/sample/index.html"),
                ("immutable", "https://app.localhost/cached/index.html"),
            ] {
                var cold: [Double] = []
                var warm: [Double] = []
                var blank: [Double] = []
                let before = registry.metrics.started
                var warmLoads = 0
                for _ in 0..<max(rounds, 5) {
                    let clock = ContinuousClock()
                    cold.append(
                        Self.milliseconds(
                            try await clock.measure {
                                let page = try await browsers[0].newPage()
                                try await page.navigate(to: sample)
                                try await page.close()
                            }))
                    let page = try await pool.acquire(for: holder)
                    blank.append(
                        Self.milliseconds(
                            try await clock.measure { try await page.navigate(to: "https://app.localhost/blank.html") })
                    )
                    let started = registry.metrics.started
                    warm.append(Self.milliseconds(try await clock.measure { try await page.navigate(to: sample) }))
                    warmLoads += registry.metrics.started - started
                    try await pool.recycle(page)
                }
                // The same page from nginx over HTTP on the same pooled page: Chromium's own share.
                var http: [Double] = []
                if let nginx = Self.environment["SCHEMEKIT_BENCH_NGINX"] {
                    for _ in 0..<max(rounds, 5) {
                        let page = try await pool.acquire(for: holder)
                        try await page.navigate(to: nginx + "/blank.html")
                        http.append(
                            Self.milliseconds(
                                try await ContinuousClock().measure {
                                    try await page.navigate(
                                        to: nginx + "/" + (regime == "no-cache" ? "sample" : "cached") + "/index.html")
                                }))
                        try await pool.recycle(page)
                    }
                }
                print(
                    String(
                        format: "BENCH page load %@ pooled from nginx (http) median=%.1f p90=%.1f",
                        regime, http.isEmpty ? 0 : Self.percentile(http, 0.5),
                        http.isEmpty ? 0 : Self.percentile(http, 0.9)))
                print(
                    String(
                        format:
                            "BENCH page load %@ cold median=%.1f p90=%.1f pooled median=%.1f p90=%.1f ratio=%.1f; pooled blank page median=%.1f; requests per pooled load %.1f (all loads %d)",
                        regime, Self.percentile(cold, 0.5), Self.percentile(cold, 0.9), Self.percentile(warm, 0.5),
                        Self.percentile(warm, 0.9), Self.percentile(cold, 0.5) / Self.percentile(warm, 0.5),
                        Self.percentile(blank, 0.5), Double(warmLoads) / Double(warm.count),
                        registry.metrics.started - before))
            }
            await pool.shutDown()

            // Live reload: from a file's save to the reloaded page's navigation start
            // (`performance.timeOrigin` of the new document; both on this machine's clock), against
            // a `schemeserve --watch` that chromium.sh starts.
            if let base = Self.environment["SCHEMEKIT_BENCH_LIVERELOAD"],
                let watched = Self.environment["SCHEMEKIT_BENCH_LIVERELOAD_DIR"]
            {
                let page = try await browsers[0].newPage()
                try await page.navigate(to: base + "/index.html")
                try await Task.sleep(for: .milliseconds(500))  // the page's WebSocket connects
                var latencies: [Double] = []
                for round in 0..<max(rounds * 4, 10) {
                    let before = try await page.evaluate("performance.timeOrigin").doubleValue ?? 0
                    let saved = Date().timeIntervalSince1970 * 1000
                    try Data("body { --round: \(round); }\n".utf8).write(
                        to: URL(fileURLWithPath: watched).appendingPathComponent("style.css"))
                    var origin = before
                    let deadline = ContinuousClock.now + .seconds(5)
                    while origin == before, ContinuousClock.now < deadline {
                        try await Task.sleep(for: .milliseconds(5))
                        origin = (try? await page.evaluate("performance.timeOrigin").doubleValue) ?? before
                    }
                    if origin != before { latencies.append(origin - saved) }
                    try await Task.sleep(for: .milliseconds(300))  // the new page's WebSocket connects
                }
                print(
                    String(
                        format:
                            "BENCH live reload: save to reload median=%.1f ms p90=%.1f ms (%d of %d saves reloaded)",
                        latencies.isEmpty ? -1 : Self.percentile(latencies, 0.5),
                        latencies.isEmpty ? -1 : Self.percentile(latencies, 0.9), latencies.count, max(rounds * 4, 10)))
                try await page.close()
            }
            playwright?.close()
            for adapter in adapters { await adapter.stop() }
            for browser in browsers { await browser.close() }
        }

        static func percentile(_ values: [Double], _ fraction: Double) -> Double {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return .nan }
            return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
        }

        static func milliseconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        }

        static func cpuSeconds() -> Double {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
    }
#endif
