#if Firefox
    /// How ``FirefoxPage/printToPDF(_:)`` prints a page (`browsingContext.print`).
    ///
    /// ```swift
    /// let pdf = try await page.printToPDF(FirefoxPDFOptions(pageWidth: 21.0, pageHeight: 29.7, background: true))  // A4
    /// ```
    public struct FirefoxPDFOptions: Sendable, Hashable {
        /// The paper's width in centimetres. Default: 21.59 (US Letter, Firefox's own default).
        public var pageWidth: Double
        /// The paper's height in centimetres. Default: 27.94 (US Letter).
        public var pageHeight: Double
        /// Print background colours and images. Default: `false`, as browsers print.
        public var background: Bool

        /// Creates options; every parameter has the default documented on its property.
        public init(pageWidth: Double = 21.59, pageHeight: Double = 27.94, background: Bool = false) {
            self.pageWidth = pageWidth
            self.pageHeight = pageHeight
            self.background = background
        }
    }
#endif
