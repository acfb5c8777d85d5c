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
}
