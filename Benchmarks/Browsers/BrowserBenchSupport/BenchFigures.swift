public import Foundation

/// What the browser benchmarks (`chromium-bench`, `firefox-bench`) share: the files they fetch,
/// the page script that times the fetches, and the arithmetic of their `BENCH` lines.
public enum BenchFigures {
    /// The files fetched: name, size, and how many fetches of it one round makes.
    public static let sizes: [(name: String, bytes: Int, samples: Int)] = [
        ("1k", 1 << 10, 20), ("64k", 64 << 10, 20), ("1m", 1 << 20, 8), ("10m", 10 << 20, 3),
    ]

    /// `(base, name, count)`: `count` sequential fetches of `base + name`; the time of each, in ms.
    public static let measure = """
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

    /// The benchmark's environment (the scripts set `SCHEMEKIT_BENCH_*`).
    public static let environment = ProcessInfo.processInfo.environment

    /// Rounds to run: `SCHEMEKIT_BENCH_ROUNDS`, default 5.
    public static var rounds: Int { Int(environment["SCHEMEKIT_BENCH_ROUNDS"] ?? "5") ?? 5 }

    /// The repository's sample app, found from this file's path.
    public static let sampleApp = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/app")

    /// The directory the files are served from: `SCHEMEKIT_BENCH_DIR` (the scripts make the files
    /// there), or `fallback`; every file of ``sizes`` and a blank page are made when missing.
    public static func siteDirectory(fallback: String) throws -> URL {
        let directory = URL(fileURLWithPath: environment["SCHEMEKIT_BENCH_DIR"] ?? fallback)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for size in sizes
        where !FileManager.default.fileExists(atPath: directory.appendingPathComponent(size.name).path) {
            try Data((0..<size.bytes).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(
                to: directory.appendingPathComponent(size.name))
        }
        try Data("<!doctype html><title>blank</title>".utf8).write(to: directory.appendingPathComponent("blank.html"))
        return directory
    }

    /// The value at `fraction` (0.5: the median) of `values`; `nan` when there are none.
    public static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }

    /// `duration` in milliseconds.
    public static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// The CPU time (user and system) this process has used, in seconds.
    public static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
