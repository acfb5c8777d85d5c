// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so the main package never builds ordo-one/benchmark.
// Run: cd Benchmarks && swift package --disable-sandbox benchmark
let package = Package(
    name: "SchemeKitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "SchemeKit", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
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
    ],
    swiftLanguageModes: [.v6]
)
