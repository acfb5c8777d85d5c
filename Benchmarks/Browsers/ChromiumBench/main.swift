// The figures behind `Benchmarks/chromium.sh`: `fetch()` latency through the SchemeKitChromium
// adapter (CBOR and JSON pipe), schemeserve, nginx and Playwright's route.fulfill from the same
// Chromium, cold versus pooled page loads, the adapter's process CPU per request, and live reload.
// Prints `BENCH` lines. The script starts the peers and passes them in the environment:
//
//     SCHEMEKIT_BENCH_DIR, SCHEMEKIT_BENCH_ROUNDS, SCHEMEKIT_BENCH_SCHEMESERVE, SCHEMEKIT_BENCH_NGINX,
//     SCHEMEKIT_BENCH_PLAYWRIGHT, SCHEMEKIT_BENCH_LIVERELOAD, SCHEMEKIT_BENCH_LIVERELOAD_DIR
//
//     cd Benchmarks && swift run -c release chromium-bench
import BrowserBenchSupport
import Foundation
import SchemeKit
import SchemeKitChromium

/// One way to run the measuring script: a page and the base URL it fetches from.
struct Peer {
    let name: String
    let base: String
    /// Evaluates an expression in the peer's page.
    let evaluate: @Sendable (String) async throws -> JavaScriptValue
}

let environment = BenchFigures.environment
let directory = try BenchFigures.siteDirectory(fallback: "/tmp/schemekit-chromium-bench")
let rounds = BenchFigures.rounds
let registry = SchemeRegistry()
try registry.register(LocalFileHandler(root: directory), for: "app")
// The sample app twice under the directory (a route's prefix is part of the path the handler looks
// up): `/sample/` as the file handler serves it by default (`no-cache`), and `/cached/` as an
// offline package the browser may keep (what headless-render serves).
for copy in ["sample", "cached"] {
    let destination = directory.appendingPathComponent(copy)
    try? FileManager.default.removeItem(at: destination)
    try FileManager.default.copyItem(at: BenchFigures.sampleApp, to: destination)
}
try registry.register(
    LocalFileHandler(configuration: .init(root: .directory(directory), cacheControl: "max-age=31536000, immutable")),
    for: "app", pathPrefix: "/cached")
let origin = VirtualOrigin(host: "app.localhost", scheme: "app", registryHost: "localhost")

var browsers: [ChromiumBrowser] = []
var adapters: [ChromiumSchemeAdapter] = []
var playwright: PlaywrightPeer?

/// Stops every adapter, closes every browser and the Playwright peer.
@MainActor func closeEverything() async {
    playwright?.close()
    for adapter in adapters { await adapter.stop() }
    for browser in browsers { await browser.close() }
}

do {
    var peers: [Peer] = []
    for format in ChromiumWireFormat.allCases {
        let browser = try await ChromiumBrowser.launch(ChromiumLaunchOptions(wireFormat: format))
        browsers.append(browser)
        let adapter = ChromiumSchemeAdapter(
            registry: registry, browser: browser, configuration: ChromiumAdapterConfiguration(origins: [origin]))
        adapters.append(adapter)
        try await adapter.start()
        let page = try await browser.newPage()
        try await page.navigate(to: "https://app.localhost/blank.html")
        peers.append(
            Peer(name: "adapter-\(format.rawValue)", base: "https://app.localhost/") { try await page.evaluate($0) })
    }
    for (name, variable) in [("schemeserve", "SCHEMEKIT_BENCH_SCHEMESERVE"), ("nginx", "SCHEMEKIT_BENCH_NGINX")] {
        guard let base = environment[variable] else { continue }
        let page = try await browsers[0].newPage()
        try await page.navigate(to: base + "/blank.html")
        peers.append(Peer(name: name, base: base + "/") { try await page.evaluate($0) })
    }
    // Playwright's route.fulfill at the same virtual origin, in a Chromium of its own (the same
    // binary), when chromium.sh found Playwright for Python.
    if let script = environment["SCHEMEKIT_BENCH_PLAYWRIGHT"] {
        let peer = try PlaywrightPeer(script: script, directory: directory)
        playwright = peer
        peers.append(Peer(name: "playwright", base: "https://app.localhost/") { try await peer.evaluate($0) })
    }

    var samples: [String: [Double]] = [:]
    var adapterCPU: Double = 0
    var adapterRequests = 0
    // Warm-up round, not recorded.
    for peer in peers { _ = try await peer.evaluate("(\(BenchFigures.measure))('\(peer.base)', '1m', 2)") }
    for _ in 0..<rounds {
        for size in BenchFigures.sizes {
            for peer in peers.shuffled() {
                let cpu = BenchFigures.cpuSeconds()
                let times = try await peer.evaluate(
                    "(\(BenchFigures.measure))('\(peer.base)', '\(size.name)', \(size.samples))")
                if peer.name.hasPrefix("adapter") {
                    adapterCPU += BenchFigures.cpuSeconds() - cpu
                    adapterRequests += size.samples
                }
                samples["\(peer.name) \(size.name)", default: []] += times.arrayValue?.compactMap(\.doubleValue) ?? []
            }
        }
    }
    print("BENCH fetch latency in ms (median, p90) over \(rounds) interleaved rounds")
    for size in BenchFigures.sizes {
        let baseline = samples["nginx \(size.name)"].map { BenchFigures.percentile($0, 0.5) }
        let playwrightMedian = samples["playwright \(size.name)"].map { BenchFigures.percentile($0, 0.5) }
        for peer in peers {
            guard let values = samples["\(peer.name) \(size.name)"] else { continue }
            let median = BenchFigures.percentile(values, 0.5)
            var ratio = baseline.map { String(format: " ratio-to-nginx=%.2f", median / $0) } ?? ""
            if let playwrightMedian, peer.name != "playwright" {
                ratio += String(format: " ratio-to-playwright=%.2f", median / playwrightMedian)
            }
            print(
                String(
                    format: "BENCH %@ %@ median=%.2f p90=%.2f n=%d%@", size.name, peer.name, median,
                    BenchFigures.percentile(values, 0.9), values.count, ratio))
        }
    }
    print(
        String(
            format: "BENCH adapter process CPU per adapter request: %.3f ms (%d requests, all sizes)",
            adapterCPU * 1000 / Double(max(adapterRequests, 1)), adapterRequests))

    // Page loads: a new page each time versus a pooled page.
    let pool = browsers[0].makePagePool(configuration: SessionPoolConfiguration(warmCount: 1, maximumCount: 1))
    await pool.start()
    let holder = PoolHolder()
    // Two regimes, as for WebKit: every file asked for on every load (`no-cache`, the default), and
    // files the browser may keep (`immutable`). A blank page gives the floor of a navigation itself.
    for (regime, sample) in [
        ("no-cache", "https://app.localhost/sample/index.html"),
        ("immutable", "https://app.localhost/cached/index.html"),
    ] {
        var cold: [Double] = []
        var warm: [Double] = []
        var blank: [Double] = []
        let before = registry.metrics.started
        var warmLoads = 0
        let clock = ContinuousClock()
        for _ in 0..<max(rounds, 5) {
            cold.append(
                BenchFigures.milliseconds(
                    try await clock.measure {
                        let page = try await browsers[0].newPage()
                        try await page.navigate(to: sample)
                        try await page.close()
                    }))
            let page = try await pool.acquire(for: holder)
            blank.append(
                BenchFigures.milliseconds(
                    try await clock.measure { try await page.navigate(to: "https://app.localhost/blank.html") }))
            let started = registry.metrics.started
            warm.append(BenchFigures.milliseconds(try await clock.measure { try await page.navigate(to: sample) }))
            warmLoads += registry.metrics.started - started
            try await pool.recycle(page)
        }
        // The same page from nginx over HTTP on the same pooled page: Chromium's own share.
        var http: [Double] = []
        if let nginx = environment["SCHEMEKIT_BENCH_NGINX"] {
            for _ in 0..<max(rounds, 5) {
                let page = try await pool.acquire(for: holder)
                try await page.navigate(to: nginx + "/blank.html")
                let path = nginx + "/" + (regime == "no-cache" ? "sample" : "cached") + "/index.html"
                http.append(BenchFigures.milliseconds(try await clock.measure { try await page.navigate(to: path) }))
                try await pool.recycle(page)
            }
        }
        print(
            String(
                format: "BENCH page load %@ pooled from nginx (http) median=%.1f p90=%.1f",
                regime, http.isEmpty ? 0 : BenchFigures.percentile(http, 0.5),
                http.isEmpty ? 0 : BenchFigures.percentile(http, 0.9)))
        print(
            String(
                format:
                    "BENCH page load %@ cold median=%.1f p90=%.1f pooled median=%.1f p90=%.1f ratio=%.1f; pooled blank page median=%.1f; requests per pooled load %.1f (all loads %d)",
                regime, BenchFigures.percentile(cold, 0.5), BenchFigures.percentile(cold, 0.9),
                BenchFigures.percentile(warm, 0.5), BenchFigures.percentile(warm, 0.9),
                BenchFigures.percentile(cold, 0.5) / BenchFigures.percentile(warm, 0.5),
                BenchFigures.percentile(blank, 0.5), Double(warmLoads) / Double(warm.count),
                registry.metrics.started - before))
    }
    await pool.shutDown()

    // Live reload: from a file's save to the reloaded page's navigation start
    // (`performance.timeOrigin` of the new document; both on this machine's clock), against a
    // `schemeserve --watch` that chromium.sh starts.
    if let base = environment["SCHEMEKIT_BENCH_LIVERELOAD"], let watched = environment["SCHEMEKIT_BENCH_LIVERELOAD_DIR"]
    {
        let page = try await browsers[0].newPage()
        try await page.navigate(to: base + "/index.html")
        // The page's live-reload WebSocket connects after the load, and the page does not show when:
        // a pause, as a user's save comes some time after a load (a save before it reloads nothing,
        // and is counted as not reloaded).
        try await Task.sleep(for: .milliseconds(500))  // paces the benchmark: the WebSocket connects
        var latencies: [Double] = []
        let saves = max(rounds * 4, 10)
        for round in 0..<saves {
            let before = try await page.evaluate("performance.timeOrigin").doubleValue ?? 0
            let saved = Date().timeIntervalSince1970 * 1000
            try Data("body { --round: \(round); }\n".utf8).write(
                to: URL(fileURLWithPath: watched).appendingPathComponent("style.css"))
            var origin = before
            let deadline = ContinuousClock.now + .seconds(5)
            while origin == before, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))  // paces the poll of the new document
                origin = (try? await page.evaluate("performance.timeOrigin").doubleValue) ?? before
            }
            if origin != before { latencies.append(origin - saved) }
            try await Task.sleep(for: .milliseconds(300))  // paces the benchmark: the new page's WebSocket connects
        }
        print(
            String(
                format: "BENCH live reload: save to reload median=%.1f ms p90=%.1f ms (%d of %d saves reloaded)",
                latencies.isEmpty ? -1 : BenchFigures.percentile(latencies, 0.5),
                latencies.isEmpty ? -1 : BenchFigures.percentile(latencies, 0.9), latencies.count, saves))
        try await page.close()
    }
    await closeEverything()
} catch {
    await closeEverything()
    FileHandle.standardError.write(Data("chromium-bench: error: \(error)\n".utf8))
    exit(1)
}
