#if SCHEMEKIT_WEBKIT_STANDIN
    import WebKitStandIn
#elseif canImport(WebKit)
    import WebKit
#endif

#if SCHEMEKIT_WEBKIT_STANDIN || canImport(WebKit)
    /// Why `WKWebViewConfiguration.setURLSchemeHandler(_:)` refused to register a
    /// registry's schemes (WebKit itself would raise an Objective-C exception, which aborts a Swift
    /// app). Nothing is registered when it throws.
    public struct WKSchemeRegistrationError: Error, Hashable, Sendable, CustomStringConvertible {
        enum Code: Hashable, Sendable {
            case handledByWebKit(String)
            case alreadyHandled(String)
            case noSchemes
        }

        let code: Code

        /// WebKit handles this scheme itself (`WKWebView.handlesURLScheme(_:)` is `true`).
        public static func handledByWebKit(_ scheme: String) -> WKSchemeRegistrationError {
            .init(code: .handledByWebKit(scheme))
        }
        /// The configuration already has a scheme handler for this scheme.
        public static func alreadyHandled(_ scheme: String) -> WKSchemeRegistrationError {
            .init(code: .alreadyHandled(scheme))
        }
        /// The registry has no scheme to register.
        public static let noSchemes = WKSchemeRegistrationError(code: .noSchemes)

        /// A one-line explanation.
        public var description: String {
            switch code {
            case .handledByWebKit(let scheme):
                "the scheme \"\(scheme)\" is handled by WKWebView itself (WKWebView.handlesURLScheme) and cannot have a scheme handler"
            case .alreadyHandled(let scheme):
                "the configuration already has a scheme handler for \"\(scheme)\""
            case .noSchemes:
                "the registry has no scheme: register handlers before the configuration"
            }
        }
    }
#endif
