import Benchmark

/// Registers the cache benchmarks (filled in by the cache work).
func cacheBenchmarks() {}
