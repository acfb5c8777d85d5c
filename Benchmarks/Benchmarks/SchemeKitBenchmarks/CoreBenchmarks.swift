import Benchmark

/// Registers the core benchmarks (filled in by the core work).
func coreBenchmarks() {}
