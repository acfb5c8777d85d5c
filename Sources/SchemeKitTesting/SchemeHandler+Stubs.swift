public import SchemeKit

extension SchemeHandler {
    /// This handler, answering only requests `matcher` matches (others pass).
    ///
    /// ```swift
    /// let pngs = StaticHandler(png, mimeType: "image/png").matching(.pathExtension("png"))
    /// ```
    public func matching(_ matcher: RequestMatcher) -> StubHandler<Self> {
        StubHandler(matching: matcher, self)
    }

    /// This handler, with `fault` injected; see ``FaultInjectingHandler``.
    public func injecting(_ fault: HandlerFault) -> FaultInjectingHandler<Self> {
        FaultInjectingHandler(self, fault: fault)
    }
}
