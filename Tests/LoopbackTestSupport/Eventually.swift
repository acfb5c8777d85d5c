public import Foundation
import SchemeKitTesting

#if canImport(Glibc)
    import Glibc
#endif

/// Waits for a state the test cannot be told about by polling the real condition, bounded by a
/// generous deadline: the one place the tests wait on a clock for something other than a pace of
/// their own. A test that can be told (a callback, a continuation, a log line, a process exit)
/// waits for that instead.
///
/// - Parameters:
///   - timeout: The most to wait, scaled under ThreadSanitizer (`TestTiming.scaled`). It catches a
///     hang; it is not a measure of speed. Default: 30 seconds.
///   - condition: The real condition, checked at once and then every few milliseconds.
/// - Returns: Whether `condition` held before the deadline.
public func eventually(
    timeout: Duration = .seconds(30), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + TestTiming.scaled(timeout)
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))  // paces the poll
    }
}

/// ``eventually(timeout:_:)`` for synchronous code (a thread that is not a Swift task, a process
/// helper): blocks the calling thread between checks.
public func eventuallyBlocking(timeout: Duration = .seconds(30), _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + TestTiming.scaled(timeout)
    while true {
        if try condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        usleep(5_000)  // paces the poll
    }
}

/// Whether process `pid` is gone: its `/proc` entry is gone (it exited and its parent reaped it).
/// A process that is not this one's child cannot be waited for with `waitpid`; this is what is left.
public func processIsGone(_ pid: pid_t) -> Bool {
    !FileManager.default.fileExists(atPath: "/proc/\(pid)")
}

/// Waits until process `pid` is gone (``processIsGone(_:)``), at most `timeout`.
public func waitUntilGone(_ pid: pid_t, timeout: Duration = .seconds(30)) async -> Bool {
    await eventually(timeout: timeout) { processIsGone(pid) }
}
