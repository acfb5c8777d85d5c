#if SCHEMEKIT_WEBKIT_STANDIN
    public import WebKitStandIn
#elseif canImport(WebKit)
    public import WebKit
#endif

#if SCHEMEKIT_WEBKIT_STANDIN || canImport(WebKit)
    public import SchemeKit

    extension WKWebViewConfiguration {
        /// Registers `adapter` for every scheme of its registry, or for none.
        ///
        /// WebKit raises `NSInvalidArgumentException` — an abort in a Swift app — for a scheme it
        /// handles itself and for a second handler of a scheme. This checks every scheme first and
        /// throws instead, registering nothing: call it once per configuration, after the registry
        /// has its handlers and before the first `WKWebView` is made with the configuration (WebKit
        /// copies the configuration into each view).
        ///
        /// ```swift
        /// let configuration = WKWebViewConfiguration()
        /// try configuration.setURLSchemeHandler(adapter)   // app://, and every other scheme of the registry
        /// ```
        ///
        /// - Returns: The schemes registered, sorted.
        /// - Throws: ``WKSchemeRegistrationError/handledByWebKit(_:)`` for a scheme
        ///   `WKWebView.handlesURLScheme(_:)` claims (the registry already refuses `http`, `https`,
        ///   `file` and the like; WebKit may claim more on a given OS version),
        ///   ``WKSchemeRegistrationError/alreadyHandled(_:)`` for a scheme with a handler already, and
        ///   ``WKSchemeRegistrationError/noSchemes`` for an empty registry.
        @discardableResult
        public func setURLSchemeHandler(_ adapter: WKWebViewSchemeAdapter) throws(WKSchemeRegistrationError)
            -> [SchemeName]
        {
            let schemes = adapter.registry.schemes
            guard !schemes.isEmpty else { throw .noSchemes }
            for scheme in schemes {
                if WKWebView.handlesURLScheme(scheme.rawValue) { throw .handledByWebKit(scheme.rawValue) }
                if urlSchemeHandler(forURLScheme: scheme.rawValue) != nil { throw .alreadyHandled(scheme.rawValue) }
            }
            for scheme in schemes {
                setURLSchemeHandler(adapter, forURLScheme: scheme.rawValue)
            }
            return schemes
        }
    }
#endif
