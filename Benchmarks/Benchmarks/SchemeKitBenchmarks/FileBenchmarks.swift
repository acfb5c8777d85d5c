import Benchmark

/// Registers the file benchmarks (filled in by the file work).
func fileBenchmarks() {}
