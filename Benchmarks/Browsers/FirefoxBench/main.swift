// The figures behind `Benchmarks/firefox.sh`: `fetch()` latency at 1 KiB, 64 KiB, 1 MiB and
// 10 MiB through the Firefox adapter, the Chromium adapter (CBOR pipe) and nginx (from each
// browser), side by side in one run; where a large body's time goes in this process; a
// `<video preload="auto">` of a 10 s clip from the adapter and from nginx; then cold and pooled
// page loads of the sample app in Firefox, with nginx serving the same app to the same pooled page.
// Prints `BENCH` lines. The script starts nginx and passes the environment:
//
//     SCHEMEKIT_BENCH_DIR, SCHEMEKIT_BENCH_ROUNDS, SCHEMEKIT_BENCH_NGINX
//
//     cd Benchmarks && swift run -c release firefox-bench
import BrowserBenchSupport
import Foundation
import SchemeKit
import SchemeKitChromium
import SchemeKitFirefox

/// One way to run the measuring script in a page.
struct Peer: Sendable {
    let name: String
    let run: @Sendable (String) async throws -> [Double]
    let base: String
}

/// `count` new `<video preload="auto" muted>` elements of a 10 s clip: ms from `src` to
/// `loadedmetadata`, and from `currentTime = 8` to `seeked`, for each.
let media = """
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

let environment = BenchFigures.environment
let directory = try BenchFigures.siteDirectory(fallback: "/tmp/schemekit-firefox-bench")
let destination = directory.appendingPathComponent("sample")
try? FileManager.default.removeItem(at: destination)
try FileManager.default.copyItem(at: BenchFigures.sampleApp, to: destination)
let rounds = BenchFigures.rounds
let nginx = environment["SCHEMEKIT_BENCH_NGINX"]
let registry = SchemeRegistry()
try registry.register(LocalFileHandler(root: directory), for: "app")
let origin = VirtualOrigin(host: "app.localhost", scheme: "app", registryHost: "localhost")

// Firefox, its timer at full precision (it rounds `performance.now()` to 1 ms by default).
let profile = FileManager.default.temporaryDirectory.appendingPathComponent("firefox-bench-\(UUID())")
try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
try Data(#"user_pref("privacy.reduceTimerPrecision", false);"#.utf8).write(
    to: profile.appendingPathComponent("user.js"))

var firefoxes: [(FirefoxBrowser, FirefoxSchemeAdapter)] = []
var chromiums: [(ChromiumBrowser, ChromiumSchemeAdapter)] = []

/// Stops the adapters, closes the browsers, removes the profile.
@MainActor func closeEverything() async {
    for (browser, adapter) in firefoxes {
        await adapter.stop()
        await browser.close()
    }
    for (browser, adapter) in chromiums {
        await adapter.stop()
        await browser.close()
    }
    try? FileManager.default.removeItem(at: profile)
}

do {
    let firefox = try await FirefoxBrowser.launch(FirefoxLaunchOptions(profileDirectory: profile))
    let adapter = FirefoxSchemeAdapter(
        registry: registry, browser: firefox, configuration: FirefoxAdapterConfiguration(origins: [origin]))
    firefoxes.append((firefox, adapter))
    try await adapter.start()
    var peers: [Peer] = []
    func firefoxPeer(_ name: String, base: String) async throws -> Peer {
        let page = try await firefox.newPage()
        try await page.navigate(to: base + "blank.html")
        return Peer(
            name: name, run: { script in try await page.evaluate(script).decode(as: [Double].self) }, base: base)
    }
    peers.append(try await firefoxPeer("firefox-adapter", base: "https://app.localhost/"))
    if let nginx { peers.append(try await firefoxPeer("firefox-nginx", base: nginx + "/")) }
    let chromium = try await ChromiumBrowser.launch()
    let chromiumAdapter = ChromiumSchemeAdapter(
        registry: registry, browser: chromium,
        configuration: ChromiumAdapterConfiguration(origins: [VirtualOrigin(host: "app.localhost")]))
    chromiums.append((chromium, chromiumAdapter))
    try await chromiumAdapter.start()
    func chromiumPeer(_ name: String, base: String) async throws -> Peer {
        let page = try await chromium.newPage()
        try await page.navigate(to: base + "blank.html")
        return Peer(
            name: name, run: { script in try await page.evaluate(script).arrayValue?.compactMap(\.doubleValue) ?? [] },
            base: base)
    }
    peers.append(try await chromiumPeer("chromium-adapter", base: "https://app.localhost/"))
    if let nginx { peers.append(try await chromiumPeer("chromium-nginx", base: nginx + "/")) }

    var samples: [String: [Double]] = [:]
    for peer in peers { _ = try await peer.run("(\(BenchFigures.measure))('\(peer.base)', '1m', 2)") }  // warm-up
    // The adapter's record of each request: from the request's arrival to its answer's end.
    let recordStream = adapter.records(bufferLimit: 1 << 20)
    let recordCollector = Task {
        var durations: [String: [Double]] = [:]
        for await record in recordStream {
            let name = String(record.url.split(separator: "/").last?.split(separator: "?").first ?? "")
            durations[name, default: []].append(BenchFigures.milliseconds(record.duration))
        }
        return durations
    }
    for _ in 0..<rounds {
        for size in BenchFigures.sizes {
            for peer in peers.shuffled() {
                samples["\(peer.name) \(size.name)", default: []] += try await peer.run(
                    "(\(BenchFigures.measure))('\(peer.base)', '\(size.name)', \(size.samples))")
            }
        }
    }
    recordCollector.cancel()
    let durations = await recordCollector.value
    print("BENCH fetch latency in ms (median, p90) over \(rounds) interleaved rounds")
    for size in BenchFigures.sizes {
        for peer in peers {
            guard let values = samples["\(peer.name) \(size.name)"] else { continue }
            let browser = peer.name.split(separator: "-")[0]
            let baseline = samples["\(browser)-nginx \(size.name)"].map { BenchFigures.percentile($0, 0.5) }
            let median = BenchFigures.percentile(values, 0.5)
            let ratio =
                baseline.map { String(format: " ratio-to-%@-nginx=%.2f", String(browser), median / $0) } ?? ""
            print(
                String(
                    format: "BENCH %@ %@ median=%.2f p90=%.2f n=%d%@", size.name, peer.name, median,
                    BenchFigures.percentile(values, 0.9), values.count, ratio))
        }
    }

    // Where a large body's time goes in the adapter's process: reading it through the registry,
    // against the whole exchange the record timed.
    for size in BenchFigures.sizes where size.bytes >= 1 << 20 {
        let clock = ContinuousClock()
        var reads: [Double] = []
        for _ in 0..<5 {
            reads.append(
                BenchFigures.milliseconds(
                    try await clock.measure {
                        _ = try await registry.response(
                            for: SchemeRequest("app://localhost/\(size.name)"), limit: 64 << 20)
                    }))
        }
        print(
            String(
                format:
                    "BENCH firefox %@ breakdown: in-page median=%.1f; adapter record median=%.1f; registry read median=%.1f",
                size.name, BenchFigures.percentile(samples["firefox-adapter \(size.name)"] ?? [], 0.5),
                BenchFigures.percentile(durations[size.name] ?? [], 0.5), BenchFigures.percentile(reads, 0.5)))
    }

    // Media, when the script made the clip: the Firefox adapter against nginx from Firefox.
    if FileManager.default.fileExists(atPath: directory.appendingPathComponent("clip.webm").path) {
        var metadata: [String: [Double]] = [:]
        var seeks: [String: [Double]] = [:]
        let firefoxPeers = peers.filter { $0.name.hasPrefix("firefox") }
        for peer in firefoxPeers { _ = try await peer.run("(\(media))('\(peer.base)', 1)") }  // warm-up
        for _ in 0..<rounds {
            for peer in firefoxPeers.shuffled() {
                let values = try await peer.run("(\(media))('\(peer.base)', 5)")
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
                    peer.name, BenchFigures.percentile(metadata[peer.name] ?? [], 0.5),
                    BenchFigures.percentile(metadata[peer.name] ?? [], 0.9),
                    BenchFigures.percentile(seeks[peer.name] ?? [], 0.5),
                    BenchFigures.percentile(seeks[peer.name] ?? [], 0.9), metadata[peer.name]?.count ?? 0))
        }
    }

    // Page loads in Firefox: a new page each time versus a pooled page, the sample app from the
    // adapter; then the same app from nginx on the same pooled page (Firefox's own share).
    let pool = firefox.makePagePool(configuration: SessionPoolConfiguration(warmCount: 1, maximumCount: 1))
    await pool.start()
    let holder = PoolHolder()
    let sample = "https://app.localhost/sample/index.html"
    var cold: [Double] = []
    var warm: [Double] = []
    var http: [Double] = []
    var blank: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<max(rounds, 5) {
        cold.append(
            BenchFigures.milliseconds(
                try await clock.measure {
                    let page = try await firefox.newPage()
                    try await page.navigate(to: sample)
                    try await page.close()
                }))
        let page = try await pool.acquire(for: holder)
        blank.append(
            BenchFigures.milliseconds(
                try await clock.measure { try await page.navigate(to: "https://app.localhost/blank.html") }))
        warm.append(BenchFigures.milliseconds(try await clock.measure { try await page.navigate(to: sample) }))
        if let nginx {
            try await page.navigate(to: nginx + "/blank.html")
            http.append(
                BenchFigures.milliseconds(
                    try await clock.measure { try await page.navigate(to: nginx + "/sample/index.html") }))
        }
        try await pool.recycle(page)
    }
    print(
        String(
            format:
                "BENCH firefox page load cold median=%.1f p90=%.1f pooled median=%.1f p90=%.1f ratio=%.2f; pooled blank page median=%.1f; pooled from nginx median=%.1f (adapter/nginx %.2f)",
            BenchFigures.percentile(cold, 0.5), BenchFigures.percentile(cold, 0.9), BenchFigures.percentile(warm, 0.5),
            BenchFigures.percentile(warm, 0.9), BenchFigures.percentile(cold, 0.5) / BenchFigures.percentile(warm, 0.5),
            BenchFigures.percentile(blank, 0.5), http.isEmpty ? 0 : BenchFigures.percentile(http, 0.5),
            http.isEmpty ? 0 : BenchFigures.percentile(warm, 0.5) / BenchFigures.percentile(http, 0.5)))
    print("BENCH firefox adapter \(adapter.statistics)")
    await pool.shutDown()
    await closeEverything()
} catch {
    await closeEverything()
    FileHandle.standardError.write(Data("firefox-bench: error: \(error)\n".utf8))
    exit(1)
}
