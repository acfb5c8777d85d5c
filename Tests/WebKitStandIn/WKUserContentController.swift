public import Foundation

/// The stand-in of `WKUserContentController` (`WKUserContentController.h`), reduced to what a pool
/// needs to reset a view: removing what the last holder injected.
///
/// Mirrors `WKUserContentController.h`: `WK_SWIFT_UI_ACTOR @interface WKUserContentController : NSObject <NSSecureCoding>`
@MainActor
public final class WKUserContentController: NSObject {
    /// User scripts added so far (test-only: WebKit's class exposes the scripts themselves).
    public private(set) var userScriptCount = 0
    /// Script message handlers added so far (test-only).
    public private(set) var scriptMessageHandlerCount = 0

    /// Creates an empty controller.
    override public init() {}

    /// Test-only stand-in of `addUserScript:` (whose `WKUserScript` the stand-in does not declare).
    public func addUserScriptForTesting() { userScriptCount += 1 }

    /// Test-only stand-in of `addScriptMessageHandler:name:`.
    public func addScriptMessageHandlerForTesting() { scriptMessageHandlerCount += 1 }

    /// Removes every user script.
    ///
    /// Mirrors `WKUserContentController.h`: `- (void)removeAllUserScripts;`
    public func removeAllUserScripts() { userScriptCount = 0 }

    /// Removes every script message handler.
    ///
    /// Mirrors `WKUserContentController.h`: `- (void)removeAllScriptMessageHandlers API_AVAILABLE(macos(11.0), ios(14.0));`
    public func removeAllScriptMessageHandlers() { scriptMessageHandlerCount = 0 }
}
