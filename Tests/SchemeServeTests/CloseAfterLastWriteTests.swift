// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import NIOCore
    import NIOEmbedded
    import NIOHTTPTypes
    import Testing

    @testable import SchemeServe

    /// The close held back until the last response end reached the socket.
    struct CloseAfterLastWriteTests {
        /// A channel with the handler, and a response end written but not yet flushed (in flight).
        static func channelWithEndInFlight() throws -> EmbeddedChannel {
            let channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addHandler(CloseAfterLastWrite())
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            channel.write(HTTPResponsePart.end(nil), promise: nil)
            return channel
        }

        @Test func aCloseWaitsForTheEndInFlight() throws {
            let channel = try Self.channelWithEndInFlight()
            let closed = channel.eventLoop.makePromise(of: Void.self)
            var completed = false
            closed.futureResult.assumeIsolated().whenComplete { _ in completed = true }
            channel.close(mode: .all, promise: closed)
            channel.embeddedEventLoop.run()
            #expect(!completed)
            #expect(channel.isActive)
            channel.flush()
            channel.embeddedEventLoop.run()
            #expect(completed)
            #expect(!channel.isActive)
        }

        /// A second close that carries a promise, after a first one that did not, is completed too.
        @Test func aSecondCloseWithAPromiseAfterOneWithoutIsCompleted() throws {
            let channel = try Self.channelWithEndInFlight()
            channel.close(mode: .all, promise: nil)
            let second = channel.eventLoop.makePromise(of: Void.self)
            var completed = false
            second.futureResult.assumeIsolated().whenComplete { _ in completed = true }
            channel.close(mode: .all, promise: second)
            channel.flush()
            channel.embeddedEventLoop.run()
            #expect(!channel.isActive)
            #expect(completed)
            if !completed { second.fail(ChannelError.alreadyClosed) }  // don't leak a promise on failure
        }

        /// Both promises of two closes are completed.
        @Test func twoClosesWithPromisesAreBothCompleted() throws {
            let channel = try Self.channelWithEndInFlight()
            let first = channel.eventLoop.makePromise(of: Void.self)
            let second = channel.eventLoop.makePromise(of: Void.self)
            var completed = 0
            first.futureResult.assumeIsolated().whenComplete { _ in completed += 1 }
            second.futureResult.assumeIsolated().whenComplete { _ in completed += 1 }
            channel.close(mode: .all, promise: first)
            channel.close(mode: .all, promise: second)
            channel.flush()
            channel.embeddedEventLoop.run()
            #expect(completed == 2)
        }
    }
#endif
