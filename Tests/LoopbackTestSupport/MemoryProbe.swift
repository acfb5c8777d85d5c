import Foundation
import Synchronization

/// Resident memory of this process, from `/proc/self/status`, sampled on a thread of its own
/// while a test runs: the peak growth above the resident size when the probe started.
///
/// The kernel's own peak (`VmHWM`) is reset through `/proc/self/clear_refs` when allowed, and
/// the larger of it and the sampled peak is reported, so a short spike between samples counts.
public final class MemoryProbe: Sendable {
    private let baseline: Int
    private let peak = Mutex(0)
    private let running = Atomic<Bool>(true)
    private let hwmReset: Bool
    private let done = DispatchSemaphore(value: 0)

    /// `VmRSS` or `VmHWM` in bytes.
    public static func read(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let kib = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return kib * 1024
        }
        return 0
    }

    /// Starts sampling every 10 ms.
    public init() {
        // "5" resets the peak resident size (VmHWM) to the current one (Linux 4.0+).
        hwmReset = (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
        baseline = Self.read("VmRSS")
        peak.withLock { $0 = baseline }
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                let now = Self.read("VmRSS")
                peak.withLock { $0 = max($0, now) }
                usleep(10_000)  // paces the sampling: every 10 ms
            }
            done.signal()
        }
        thread.start()
    }

    /// Stops sampling; returns the peak growth in bytes.
    public func stop() -> Int {
        running.store(false, ordering: .relaxed)
        done.wait()
        var top = peak.withLock { $0 }
        if hwmReset { top = max(top, Self.read("VmHWM")) }
        return top - baseline
    }
}
