// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import NIOCore
    import NIOHTTPTypes

    /// Holds a connection's close back until the response written before it has reached the socket.
    ///
    /// On a graceful shutdown Hummingbird closes a connection as soon as the response's end is
    /// *written* to the pipeline. A close fails every write the socket has not taken yet, so a slow
    /// client would lose the tail of an in-flight download. This handler, placed between the HTTP
    /// codec and Hummingbird's connection handler, watches each response's end (one promise per
    /// response; writes complete in order) and delays a full close until that end has been written.
    /// Event-loop confined, like every channel handler.
    final class CloseAfterLastWrite: ChannelOutboundHandler, RemovableChannelHandler {
        typealias OutboundIn = HTTPResponsePart
        typealias OutboundOut = HTTPResponsePart

        /// Ends written to the pipeline but not yet to the socket.
        private var endsInFlight = 0
        private var deferredClose: (mode: CloseMode, promise: EventLoopPromise<Void>?)?

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            guard case .end = unwrapOutboundIn(data) else {
                context.write(data, promise: promise)
                return
            }
            let written = promise ?? context.eventLoop.makePromise()
            endsInFlight += 1
            written.futureResult.assumeIsolated().whenComplete { _ in
                self.endsInFlight -= 1
                guard self.endsInFlight == 0, let close = self.deferredClose else { return }
                self.deferredClose = nil
                context.close(mode: close.mode, promise: close.promise)
            }
            context.write(data, promise: written)
        }

        func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
            guard mode == .all, endsInFlight > 0 else {
                context.close(mode: mode, promise: promise)
                return
            }
            if let earlier = deferredClose {
                // One close happens; every promise handed to a deferred close completes with it.
                if let promise {
                    if let earlierPromise = earlier.promise {
                        earlierPromise.futureResult.cascade(to: promise)
                    } else {
                        deferredClose = (earlier.mode, promise)
                    }
                }
            } else {
                deferredClose = (mode, promise)
            }
        }
    }
#endif
