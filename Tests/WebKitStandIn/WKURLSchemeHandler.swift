public import Foundation

/// The stand-in of WebKit's `WKURLSchemeHandler` (`WKURLSchemeHandler.h`), as Swift imports it.
///
/// The header marks the protocol `WK_SWIFT_UI_ACTOR`, so Swift sees a `@MainActor` protocol that
/// refines `NSObjectProtocol`. On Linux `NSObjectProtocol` is swift-corelibs-foundation's Swift
/// protocol, not the Objective-C one: conformers subclass `NSObject` there as on Apple platforms,
/// which is all the adapter relies on.
///
/// WebKit calls both methods on the main thread; the stand-in's engine (``WKWebView``) does too.
///
/// Mirrors `WKURLSchemeHandler.h`: `WK_SWIFT_UI_ACTOR @protocol WKURLSchemeHandler <NSObject>`
@MainActor
public protocol WKURLSchemeHandler: NSObjectProtocol {
    /// WebKit hands a new task to the handler.
    ///
    /// Mirrors `WKURLSchemeHandler.h`: `- (void)webView:(WKWebView *)webView startURLSchemeTask:(id <WKURLSchemeTask>)urlSchemeTask;`
    func webView(_ webView: WKWebView, start urlSchemeTask: any WKURLSchemeTask)

    /// WebKit gave up on a task: after this returns, the handler must not call the task again.
    ///
    /// Mirrors `WKURLSchemeHandler.h`: `- (void)webView:(WKWebView *)webView stopURLSchemeTask:(id <WKURLSchemeTask>)urlSchemeTask;`
    func webView(_ webView: WKWebView, stop urlSchemeTask: any WKURLSchemeTask)
}
