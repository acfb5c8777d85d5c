// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server && os(Linux)
    import Foundation
    import Synchronization
    import Testing
    import Glibc

    /// The tests that block run on threads of their own (``OwnThread``), never on the Swift
    /// concurrency pool that in-process servers' handlers need.
    @Suite(.ownThread)
    struct OwnThreadTests {
        /// The calling thread's name: NIO names its loop threads `NIO-ELT-…`, the pool's are Dispatch's.
        static var threadName: String {
            (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        }

        @Test func aSynchronousTestRunsOnItsOwnThread() {
            #expect(Self.threadName.hasPrefix("NIO-ELT"), "\(Self.threadName)")
        }

        @Test func anAsynchronousTestAndItsChildTasksRunThereToo() async {
            #expect(Self.threadName.hasPrefix("NIO-ELT"), "\(Self.threadName)")
            let child = await withTaskGroup(of: String.self) { group in
                group.addTask { Self.threadName }
                return await group.next() ?? ""
            }
            #expect(child.hasPrefix("NIO-ELT"), "\(child)")
        }

        /// Tests blocking their threads at once (two here, as many as CI's pool has threads) leave
        /// the pool free: a task on it runs while they block, not after.
        @Test(arguments: [1, 2])
        func blockingLeavesThePoolFree(_ index: Int) async throws {
            let blocking = Atomic<Bool>(true)
            let ranWhileBlocked = Task.detached { blocking.load(ordering: .acquiring) }
            usleep(500_000)  // a blocking call: a process to wait for, a socket to read
            blocking.store(false, ordering: .releasing)
            #expect(await ranWhileBlocked.value, "the pool's task ran only after the test stopped blocking")
        }
    }
#endif
