public import Foundation

/// The stand-in of `WKWebViewConfiguration` (`WKWebViewConfiguration.h`), reduced to scheme
/// handlers and the user content controller.
///
/// Mirrors `WKWebViewConfiguration.h`: `WK_SWIFT_UI_ACTOR @interface WKWebViewConfiguration : NSObject <NSSecureCoding, NSCopying>`
@MainActor
public final class WKWebViewConfiguration: NSObject {
    private var handlers: [String: any WKURLSchemeHandler] = [:]

    /// Registrations WebKit would have raised an exception for (test-only): a scheme WebKit
    /// handles itself, an invalid scheme name, or a second handler for a scheme.
    public private(set) var registrationViolations: [String] = []

    /// The user content controller.
    ///
    /// Mirrors `WKWebViewConfiguration.h`: `@property (nonatomic, strong) WKUserContentController *userContentController;`
    public var userContentController = WKUserContentController()

    /// Creates an empty configuration.
    override public init() {}

    /// Registers `urlSchemeHandler` for `urlScheme`.
    ///
    /// WebKit raises `NSInvalidArgumentException` for a scheme it handles itself
    /// (``WKWebView/handlesURLScheme(_:)``), an invalid scheme name, or a scheme that already has a
    /// handler; the stand-in records a registration violation and ignores the call.
    ///
    /// Mirrors `WKWebViewConfiguration.h`: `- (void)setURLSchemeHandler:(nullable id <WKURLSchemeHandler>)urlSchemeHandler forURLScheme:(NSString *)urlScheme;`
    public func setURLSchemeHandler(_ urlSchemeHandler: (any WKURLSchemeHandler)?, forURLScheme urlScheme: String) {
        let key = urlScheme.lowercased()
        if WKWebView.handlesURLScheme(key) {
            registrationViolations.append("'\(urlScheme)' is a URL scheme that WKWebView handles natively")
            return
        }
        let valid =
            key.first?.isLetter == true
            && key.unicodeScalars.allSatisfy {
                ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || "+-.".unicodeScalars.contains($0)
            }
        guard valid else {
            registrationViolations.append("'\(urlScheme)' is not a valid URL scheme")
            return
        }
        guard let urlSchemeHandler else {
            handlers[key] = nil
            return
        }
        guard handlers[key] == nil else {
            registrationViolations.append("URL scheme '\(urlScheme)' already has a registered URL scheme handler")
            return
        }
        handlers[key] = urlSchemeHandler
    }

    /// The handler registered for `urlScheme`, if any.
    ///
    /// Mirrors `WKWebViewConfiguration.h`: `- (nullable id <WKURLSchemeHandler>)urlSchemeHandlerForURLScheme:(NSString *)urlScheme;`
    public func urlSchemeHandler(forURLScheme urlScheme: String) -> (any WKURLSchemeHandler)? {
        handlers[urlScheme.lowercased()]
    }
}
