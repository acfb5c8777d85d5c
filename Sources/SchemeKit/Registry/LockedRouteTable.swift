import Foundation

/// The registry's ``RouteTable`` behind a lock.
///
/// Not `Synchronization.Mutex`: on Linux a contended `Mutex` is handed over through a
/// priority-inheritance futex inside the kernel, which the thread sanitizer cannot see, so a
/// registration racing a dispatch is reported as a data race that is not one. `NSLock` is a
/// pthread mutex, which the sanitizer understands, and costs the same uncontended.
///
/// `@unchecked Sendable` because `table` is only touched while `lock` is held.
final class LockedRouteTable: @unchecked Sendable {
    private let lock = NSLock()
    private var table = RouteTable()

    func withLock<Result, Failure: Error>(
        _ body: (inout RouteTable) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&table)
    }
}
