// swift-tools-version: 6.2
import PackageDescription

/// The browser benchmarks' settings: a warning in their code fails the build (CI builds this
/// package and allows none in its own code).
let browserSettings: [SwiftSetting] = [.treatAllWarnings(as: .error)]

// Benchmarks live in their own package so the main package never builds ordo-one/benchmark.
// Run: cd Benchmarks && swift package --disable-sandbox benchmark
let package = Package(
    name: "SchemeKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The browser benchmarks drive SchemeKitChromium and SchemeKitFirefox: their traits on, and
        // the default ones (`Server`).
        .package(name: "SchemeKit", path: "..", traits: [.defaults, "Chromium", "Firefox"]),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The peer of `gzip-peers`: what schemeserve's gzip went through before it used zlib directly.
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "SchemeKitBenchmarks",
            dependencies: [
                .product(name: "SchemeKit", package: "SchemeKit"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SchemeKitBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The reference server for Benchmarks/serve.sh: what SwiftNIO's HTTP pipeline alone serves.
        // Outside `Benchmarks/`: the benchmark plugin runs every executable there as a benchmark.
        .executableTarget(
            name: "nio-floor",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Peers/NIOFloor"
        ),
        // schemeserve's gzip through compress-nio and through zlib directly, side by side:
        // `swift run -c release gzip-peers`.
        .executableTarget(
            name: "gzip-peers",
            dependencies: [
                "CGzipPeerZlib",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            path: "Peers/GzipPeers"
        ),
        .systemLibrary(name: "CGzipPeerZlib", path: "Peers/CGzipPeerZlib"),
        // The browser benchmarks (`Benchmarks/chromium.sh`, `Benchmarks/firefox.sh` run them):
        // `fetch()` latency, page loads and media through the adapters, next to nginx, schemeserve
        // and Playwright, through SchemeKit's public API. Outside `Benchmarks/` (the plugin's).
        .target(
            name: "BrowserBenchSupport",
            path: "Browsers/BrowserBenchSupport",
            swiftSettings: browserSettings
        ),
        .executableTarget(
            name: "chromium-bench",
            dependencies: [
                "BrowserBenchSupport",
                .product(name: "SchemeKit", package: "SchemeKit"),
                .product(name: "SchemeKitChromium", package: "SchemeKit"),
            ],
            path: "Browsers/ChromiumBench",
            swiftSettings: browserSettings
        ),
        .executableTarget(
            name: "firefox-bench",
            dependencies: [
                "BrowserBenchSupport",
                .product(name: "SchemeKit", package: "SchemeKit"),
                .product(name: "SchemeKitChromium", package: "SchemeKit"),
                .product(name: "SchemeKitFirefox", package: "SchemeKit"),
            ],
            path: "Browsers/FirefoxBench",
            swiftSettings: browserSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
