// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import NIOCore
    import NIOPosix
    import Testing

    /// Runs each test case of a suite on a thread of its own instead of the Swift concurrency pool.
    ///
    /// The pool has one thread per core: two on CI's machine. A test that blocks one of them
    /// (waiting for a `schemeserve` process, a blocking socket read) takes it from every in-process
    /// server that other tests run at the same time, whose handlers are Swift tasks on that pool; two
    /// such tests stall those servers until their clients time out. Under this trait the test's
    /// body, and the child tasks it creates, run on a one-thread event loop group made for the test
    /// case (a task executor preference); unstructured tasks still run on the pool.
    struct OwnThread: SuiteTrait, TestTrait, TestScoping {
        var isRecursive: Bool { true }

        func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
            testCase == nil ? nil : self
        }

        func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            do {
                try await withTaskExecutorPreference(LoopExecutor(loop: group.next()), operation: function)
            } catch {
                try? await group.shutdownGracefully()
                throw error
            }
            try await group.shutdownGracefully()
        }

        /// An event loop as a task executor: every job runs on the loop's thread.
        private final class LoopExecutor: TaskExecutor {
            let loop: any EventLoop

            init(loop: any EventLoop) { self.loop = loop }

            func enqueue(_ job: consuming ExecutorJob) {
                let job = UnownedJob(job)
                let executor = asUnownedTaskExecutor()
                loop.execute { job.runSynchronously(on: executor) }
            }
        }
    }

    extension Trait where Self == OwnThread {
        /// Each test case runs on a thread of its own; see ``OwnThread``.
        static var ownThread: Self { OwnThread() }
    }
#endif
