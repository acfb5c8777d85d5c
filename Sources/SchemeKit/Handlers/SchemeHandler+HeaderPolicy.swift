extension SchemeHandler {
    /// This handler, with its response headers set or removed by path; see ``HeaderPolicyHandler``.
    ///
    /// ```swift
    /// let files = LocalFileHandler(root: root)
    ///     .headerPolicy(.crossOriginIsolation() + .cacheControl("no-store", for: PathPattern("/api/**")!))
    /// ```
    public func headerPolicy(_ policy: HeaderPolicy) -> HeaderPolicyHandler<Self> {
        HeaderPolicyHandler(self, policy: policy)
    }
}
