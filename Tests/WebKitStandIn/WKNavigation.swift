public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The stand-in of `WKNavigation` (`WKNavigation.h`): an opaque token for one navigation.
///
/// Mirrors `WKNavigation.h`: `@interface WKNavigation : NSObject`
@MainActor
public final class WKNavigation: NSObject {
    /// The request the navigation loads (test-only; WebKit's class exposes nothing).
    public let request: URLRequest

    init(request: URLRequest) {
        self.request = request
    }
}
