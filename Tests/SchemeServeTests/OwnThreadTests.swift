// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server && os(Linux)
    import Foundation
    import LoopbackTestSupport
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
        /// the pool free: each blocks until a task on the pool has run, which without the trait
        /// could not happen before the deadline on a two-core machine. (Other suites in the same
        /// process may hold the pool for a while, hence the generous deadline.)
        @Test(arguments: [1, 2])
        func blockingLeavesThePoolFree(_ index: Int) async throws {
            let ran = Atomic<Bool>(false)
            let poolTask = Task.detached { ran.store(true, ordering: .releasing) }
            // A blocking wait, as for a process or a socket.
            let ranWhileBlocked = eventuallyBlocking { ran.load(ordering: .acquiring) }
            #expect(ranWhileBlocked, "no pool task ran while the test blocked")
            await poolTask.value
        }
    }
#endif
