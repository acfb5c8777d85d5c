import SchemeKit
import Testing

/// The values every engine adapter shares: one origin type for Chromium and Firefox, one set of PDF
/// options and one error for all three engines.
struct EngineValueTests {
    @Test func aVirtualOriginIsLowercasedAndStartsAtItsRoot() {
        let origin = VirtualOrigin(host: "App.LocalHost", scheme: "APP", registryHost: "Bundle")
        #expect(origin.host == "app.localhost")
        #expect(origin.scheme == "app")
        #expect(origin.registryHost == "Bundle")
        #expect(origin.url == "https://app.localhost/")
        let defaults = VirtualOrigin(host: "x.localhost")
        #expect(defaults == VirtualOrigin(host: "x.localhost", scheme: "app", registryHost: "localhost"))
    }

    @Test func pdfOptionsDefaultToUSLetterWithoutBackgrounds() {
        let options = PDFOptions()
        #expect(options.pageWidth == 21.59)
        #expect(options.pageHeight == 27.94)
        #expect(!options.background)
        #expect(PDFOptions(pageWidth: 21.0, pageHeight: 29.7, background: true) != options)
    }

    /// What a user prints or matches: `code: message`, the protocol's own code in parentheses, and
    /// codes that compare by name whatever the message.
    @Test func anEngineErrorSaysItsCodeAndTheProtocolsCode() {
        let refused = EngineError(.protocolError, "No resource with given identifier found", protocolCode: "-32602")
        #expect("\(refused)" == "protocolError (-32602): No resource with given identifier found")
        let gone = EngineError(.disconnected, "the connection was closed")
        #expect("\(gone)" == "disconnected: the connection was closed")
        #expect(gone.protocolCode == nil)
        #expect(gone.code == .disconnected && gone.code != .closed)
        #expect(gone != EngineError(.disconnected, "another message"))
        #expect("\(EngineError.Code.navigationFailed)" == "navigationFailed")
    }
}
