public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The stand-in of WebKit's `WKURLSchemeTask` (`WKURLSchemeTask.h`), as Swift imports it.
///
/// The header has no actor annotation, so Swift imports a plain protocol refining
/// `NSObjectProtocol`; WebKit's implementation (`WKURLSchemeTask.mm`) raises
/// `NSInternalInconsistencyException` for five misuses, which ``StandInURLSchemeTask`` records as
/// ``StandInViolation``s instead.
///
/// Mirrors `WKURLSchemeTask.h`: `@protocol WKURLSchemeTask <NSObject>`
public protocol WKURLSchemeTask: NSObjectProtocol {
    /// The request to load.
    ///
    /// Mirrors `WKURLSchemeTask.h`: `@property (nonatomic, readonly, copy) NSURLRequest *request;`
    var request: URLRequest { get }

    /// Sets the response; must come before any data.
    ///
    /// Mirrors `WKURLSchemeTask.h`: `- (void)didReceiveResponse:(NSURLResponse *)response;`
    func didReceive(_ response: URLResponse)

    /// Adds body data; needs a response first.
    ///
    /// Mirrors `WKURLSchemeTask.h`: `- (void)didReceiveData:(NSData *)data;`
    func didReceive(_ data: Data)

    /// The load completed; needs a response first.
    ///
    /// Mirrors `WKURLSchemeTask.h`: `- (void)didFinish;`
    func didFinish()

    /// The load failed.
    ///
    /// Mirrors `WKURLSchemeTask.h`: `- (void)didFailWithError:(NSError *)error;`
    func didFailWithError(_ error: any Error)
}
