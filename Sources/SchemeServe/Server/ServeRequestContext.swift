// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Hummingbird
    import NIOCore

    /// The request context of ``SchemeServer``: Hummingbird's core context plus the event loop of
    /// the request's channel.
    ///
    /// The streaming path needs the loop to keep its back-pressure exact: a write handed to the
    /// channel from another thread reaches the socket (and turns the channel unwritable) only when
    /// the loop runs, so the body writer waits for the loop between batches (see
    /// ``SchemeResponder``).
    struct ServeRequestContext: RequestContext {
        var coreContext: CoreRequestContextStorage
        /// The event loop of the connection the request came on.
        let eventLoop: any EventLoop

        init(source: ApplicationRequestContextSource) {
            self.coreContext = .init(source: source)
            self.eventLoop = source.channel.eventLoop
        }
    }
#endif
