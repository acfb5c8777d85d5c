/// How an engine prints a page to PDF: the paper and whether backgrounds print, the same on every
/// engine (`ChromiumPage.printToPDF(_:)`, `FirefoxPage.printToPDF(_:)`,
/// `WebViewSession.printToPDF(to:options:)`).
///
/// Sizes are in centimetres on every engine (Chromium's own unit is the inch; the adapter converts).
///
/// ```swift
/// let pdf = try await page.printToPDF(PDFOptions(pageWidth: 21.0, pageHeight: 29.7, background: true))  // A4
/// ```
public struct PDFOptions: Sendable, Hashable {
    /// The paper's width in centimetres. Default: 21.59 (US Letter, the engines' own default).
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
