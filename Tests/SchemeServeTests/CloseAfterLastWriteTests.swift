// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import NIOCore
    import NIOEmbedded
    import Testing

    @testable import SchemeServe

    /// A close held back until what was written before it has been sent.
    ///
    /// An embedded channel never fails writes on close, so what is checked is the handler's step
    /// that a real socket needs: what was written before a close is flushed before the close (on a
    /// socket, the close then waits for that flush to complete). The end-to-end behaviour — a slow
    /// download survives a graceful shutdown — is `ServeProcessTests.gracefulShutdownFinishesInFlightDownload`.
    struct CloseAfterLastWriteTests {
        static func channel(withHandler: Bool) throws -> EmbeddedChannel {
            let channel = EmbeddedChannel()
            if withHandler { try channel.pipeline.syncOperations.addHandler(CloseAfterLastWrite()) }
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            channel.write(ByteBuffer(string: "the tail of a download"), promise: nil)  // not flushed: in flight
            return channel
        }

        static func sent(_ channel: EmbeddedChannel) throws -> String? {
            try channel.readOutbound(as: ByteBuffer.self).map { String(buffer: $0) }
        }

        @Test func aCloseSendsWhatWasWrittenBeforeIt() throws {
            let channel = try Self.channel(withHandler: true)
            let closed = channel.eventLoop.makePromise(of: Void.self)
            var closeCompleted = false
            closed.futureResult.assumeIsolated().whenComplete { _ in closeCompleted = true }
            channel.close(mode: .all, promise: closed)
            channel.embeddedEventLoop.run()
            #expect(try Self.sent(channel) == "the tail of a download")
            #expect(closeCompleted)
            #expect(!channel.isActive)
        }

        @Test func withoutTheHandlerTheWriteIsNeverSent() throws {
            let channel = try Self.channel(withHandler: false)
            channel.close(mode: .all, promise: nil)
            channel.embeddedEventLoop.run()
            #expect(try Self.sent(channel) == nil)
        }

        /// A second close that carries a promise, after a first one that did not, is completed too.
        @Test func aSecondCloseWithAPromiseAfterOneWithoutIsCompleted() throws {
            let channel = try Self.channel(withHandler: true)
            channel.close(mode: .all, promise: nil)
            let second = channel.eventLoop.makePromise(of: Void.self)
            var completed = false
            second.futureResult.assumeIsolated().whenComplete { _ in completed = true }
            channel.close(mode: .all, promise: second)
            channel.embeddedEventLoop.run()
            #expect(!channel.isActive)
            #expect(completed)
            if !completed { second.fail(ChannelError.alreadyClosed) }  // don't leak a promise on failure
        }

        /// After `Force` (a shutdown's grace period is over) a close is immediate: nothing more is sent.
        @Test func forceMakesTheCloseImmediate() throws {
            let channel = try Self.channel(withHandler: true)
            channel.pipeline.triggerUserOutboundEvent(CloseAfterLastWrite.Force(), promise: nil)
            channel.close(mode: .all, promise: nil)
            channel.embeddedEventLoop.run()
            #expect(!channel.isActive)
            #expect(try Self.sent(channel) == nil)
        }
    }
#endif
