/// A handler that answers from a ``Preloader``: requests attach to preloaded or in-flight fetches,
/// identical GETs share one upstream fetch, everything else goes to the network directly.
///
/// Put it where a ``NetworkFallbackHandler`` would go (last in the chain); it falls back to a
/// network fetch that later identical requests can join.
///
/// ```swift
/// let preloader = Preloader(allowedHosts: ["m.example.com"])
/// try registry.register(SchemeHandlerChain(files, PreloadHandler(preloader: preloader)), for: "app")
/// preloader.preload(URL(string: "app://m.example.com/")!)
/// ```
public struct PreloadHandler: SchemeHandler {
    /// The preloader consulted.
    package let preloader: Preloader

    /// Creates a handler answering from `preloader`.
    public init(preloader: Preloader) {
        self.preloader = preloader
    }

    /// "preload".
    public var name: String { "preload" }

    /// Serves the request from the preloader; see the preloader's shared fetch.
    public func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
    {
        try await preloader.serve(request, writer: writer)
    }
}
