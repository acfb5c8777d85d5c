import Benchmark

/// Every benchmark of the package; each area registers its own in its file.
let benchmarks: @Sendable () -> Void = {
    coreBenchmarks()
    fileBenchmarks()
    cacheBenchmarks()
    preloadBenchmarks()
}
