// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import NIOCore

    /// Holds a connection's close back until everything written before it has reached the socket.
    ///
    /// On a graceful shutdown NIO's `HTTPServerPipelineHandler` closes an idle connection at once,
    /// and a connection is idle for it as soon as the response's end was *written* to the pipeline —
    /// while a large body (a file region sent with `sendfile`) may still be on its way to the socket.
    /// A close fails every write the socket has not taken yet, so a slow client would lose the tail
    /// of an in-flight download.
    ///
    /// Placed first in the pipeline (next to the socket, below the HTTP encoder), this handler
    /// answers a full close by writing an empty buffer and closing once that write completes:
    /// writes complete in order, so everything before it is then on the socket. It costs nothing
    /// per response. ``Force`` (a user outbound event) makes closes immediate again: for a shutdown
    /// whose grace period is over. Event-loop confined, like every channel handler.
    final class CloseAfterLastWrite: ChannelOutboundHandler, RemovableChannelHandler {
        typealias OutboundIn = IOData
        typealias OutboundOut = IOData

        /// Makes closes immediate, including one already held back.
        struct Force: Sendable {}

        private var forced = false
        private var deferredClose: (mode: CloseMode, promise: EventLoopPromise<Void>?)?

        func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
            guard mode == .all, !forced else {
                context.close(mode: mode, promise: promise)
                return
            }
            if let earlier = deferredClose {
                // One close happens; every promise handed to a held-back close completes with it.
                if let promise {
                    if let earlierPromise = earlier.promise {
                        earlierPromise.futureResult.cascade(to: promise)
                    } else {
                        deferredClose = (earlier.mode, promise)
                    }
                }
                return
            }
            deferredClose = (mode, promise)
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.assumeIsolated().whenComplete { _ in self.closeNow(context: context) }
            context.writeAndFlush(wrapOutboundOut(.byteBuffer(ByteBuffer())), promise: written)
        }

        func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
            guard event is Force else {
                context.triggerUserOutboundEvent(event, promise: promise)
                return
            }
            forced = true
            closeNow(context: context)
            promise?.succeed()
        }

        private func closeNow(context: ChannelHandlerContext) {
            guard let close = deferredClose else { return }
            deferredClose = nil
            context.close(mode: close.mode, promise: close.promise)
        }
    }
#endif
