import Benchmark

/// Registers the preload benchmarks (filled in by the preload work).
func preloadBenchmarks() {}
