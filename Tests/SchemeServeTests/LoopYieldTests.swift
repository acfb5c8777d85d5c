#if Server
    import Foundation
    import NIOCore
    import NIOPosix
    import Synchronization
    import Testing

    @testable import SchemeServe

    /// `LoopYield`: work that waits for the loop's next poll runs after the sockets that became
    /// ready meanwhile, which a plain `execute` does not do (NIO runs every queued task first).
    ///
    /// Synchronous, waiting with `EventLoopFuture.wait()` (for milliseconds): awaiting a future
    /// that the loop completes at once resumes a Swift continuation there, which the thread
    /// sanitizer (blind to the uninstrumented concurrency runtime) reported as a race once.
    @Suite(.timeLimit(.minutes(1)))
    struct LoopYieldTests {
        /// Records what ran, in order.
        final class Journal: Sendable {
            private let entries = Mutex<[String]>([])
            func add(_ entry: String) { entries.withLock { $0.append(entry) } }
            var all: [String] { entries.withLock { $0 } }
        }

        /// Records each read of a pipe as "io".
        final class Reader: ChannelInboundHandler, Sendable {
            typealias InboundIn = ByteBuffer
            let journal: Journal
            init(_ journal: Journal) { self.journal = journal }
            func channelRead(context: ChannelHandlerContext, data: NIOAny) { journal.add("io") }
        }

        /// A pipe registered with `loop` whose reads go to `journal`; returns its write side.
        func ioSource(on loop: any EventLoop, journal: Journal) throws -> (channel: any Channel, write: CInt) {
            var ends: [CInt] = [-1, -1]
            try #require(pipe(&ends) == 0)
            let channel = try NIOPipeBootstrap(group: loop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(Reader(journal))
                    }
                }
                .takingOwnershipOfDescriptor(input: ends[0]).wait()
            return (channel, ends[1])
        }

        /// Runs `body` with a one-thread loop, a registered `LoopYield` on it and a journal; shuts
        /// the loop down after.
        func withYield(
            _ body: (_ loop: any EventLoop, _ yield: LoopYield, _ journal: Journal) throws -> Void
        ) throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            defer { try? group.syncShutdownGracefully() }
            let loop = group.next()
            let yield = try loop.submit { LoopYield(eventLoop: loop) }.wait()
            try yield.registered.wait()
            try body(loop, yield, Journal())
        }

        @Test func workWaitsForTheSocketsThatBecameReady() throws {
            try withYield { loop, yield, journal in
                let (channel, write) = try ioSource(on: loop, journal: journal)
                defer { close(write) }

                let done = loop.makePromise(of: Void.self)
                loop.execute {
                    var byte: UInt8 = 1
                    _ = Foundation.write(write, &byte, 1)  // the pipe is readable from now on
                    yield.afterNextPoll {
                        journal.add("yielded")
                        done.succeed()
                    }
                    loop.execute { journal.add("task") }
                }
                try done.futureResult.wait()
                #expect(journal.all == ["task", "io", "yielded"], "\(journal.all)")
                try channel.close().wait()
            }
        }

        @Test func workYieldedFromYieldedWorkWaitsForAnotherPoll() throws {
            try withYield { loop, yield, journal in

                let done = loop.makePromise(of: Void.self)
                loop.execute {
                    yield.afterNextPoll {
                        journal.add("first")
                        yield.afterNextPoll {
                            journal.add("second")
                            done.succeed()
                        }
                        // Runs before the next poll, so before "second" (as a task, "second" would be first).
                        loop.execute { journal.add("task") }
                    }
                }
                try done.futureResult.wait()
                #expect(journal.all == ["first", "task", "second"])
            }
        }

        @Test func afterCloseWorkStillRuns() throws {
            try withYield { loop, yield, journal in
                yield.close()
                // Closing runs on the loop; a task queued after it sees it done.
                try loop.submit {}.wait()

                let done = loop.makePromise(of: Void.self)
                loop.execute {
                    yield.afterNextPoll {
                        journal.add("after close")
                        done.succeed()
                    }
                }
                try done.futureResult.wait()
                #expect(journal.all == ["after close"])
            }
        }

        /// One piece of work per poll, first in line first: work that keeps its turn goes back to
        /// the front, other work to the back.
        @Test(arguments: [true, false])
        func oneWorkPerPollInLine(keepingTurn: Bool) throws {
            try withYield { loop, yield, journal in

                let done = loop.makePromise(of: Void.self)
                loop.execute {
                    yield.afterNextPoll {
                        journal.add("A")
                        // Queued now, it runs before the next poll: before anything yielded.
                        loop.execute { journal.add("task") }
                        yield.afterNextPoll(keepingTurn: keepingTurn) {
                            journal.add("A again")
                            if journal.all.contains("B") { done.succeed() }
                        }
                    }
                    yield.afterNextPoll {
                        journal.add("B")
                        if journal.all.contains("A again") { done.succeed() }
                    }
                }
                try done.futureResult.wait()
                #expect(journal.all == (keepingTurn ? ["A", "task", "A again", "B"] : ["A", "task", "B", "A again"]))
            }
        }
    }
#endif
