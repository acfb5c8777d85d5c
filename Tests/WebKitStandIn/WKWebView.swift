public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The stand-in of `WKWebView` (`WKWebView.h`), reduced to what the adapter and its pool use, plus
/// the engine's side: it hands requests of a registered scheme to the scheme handler as
/// ``StandInURLSchemeTask``s and stops them, on the main actor, as WebKit does.
///
/// **Assumptions** (WebKit's behaviour is not in its headers): a new navigation (``load(_:)``) and
/// ``stopLoading()`` stop every task of the view still open; a view's tasks are started and
/// stopped on the main thread, one call at a time.
///
/// Mirrors `WKWebView.h`: `WK_SWIFT_UI_ACTOR @interface WKWebView : UIView / NSView`
@MainActor
public final class WKWebView: NSObject {
    /// The configuration the view was made with (WebKit returns a copy; the stand-in the same object).
    ///
    /// Mirrors `WKWebView.h`: `@property (nonatomic, readonly, copy) WKWebViewConfiguration *configuration;`
    public let configuration: WKWebViewConfiguration

    /// The URL of the last navigation.
    ///
    /// Mirrors `WKWebView.h`: `@property (nullable, nonatomic, readonly, copy) NSURL *URL;`
    public private(set) var url: URL?

    /// The tasks started and neither completed nor stopped (test-only).
    public var openTasks: [StandInURLSchemeTask] {
        tasks.removeAll { $0.isCompleted || $0.isStopped }
        return tasks
    }

    /// Every navigation's URL, in order (test-only).
    public private(set) var navigations: [URL] = []

    private var tasks: [StandInURLSchemeTask] = []

    /// Creates a view.
    ///
    /// Mirrors `WKWebView.h`: `- (instancetype)initWithFrame:(CGRect)frame configuration:(WKWebViewConfiguration *)configuration NS_DESIGNATED_INITIALIZER;`
    public init(frame: CGRect, configuration: WKWebViewConfiguration) {
        self.configuration = configuration
    }

    /// Whether WebKit handles `urlScheme` itself (then no handler may be registered for it).
    ///
    /// **Assumption**: WebKit answers from `LegacySchemeRegistry::isBuiltinScheme`; the list here
    /// is the common part of it (the web's own schemes and WebKit's internal ones); a scheme this
    /// stand-in does not list may still be WebKit's on a given OS version.
    ///
    /// Mirrors `WKWebView.h`: `+ (BOOL)handlesURLScheme:(NSString *)urlScheme API_AVAILABLE(macos(10.13), ios(11.0));`
    public class func handlesURLScheme(_ urlScheme: String) -> Bool {
        [
            "about", "applewebdata", "blob", "data", "file", "ftp", "http", "https", "javascript", "ws", "wss",
            "webkit-fake-url", "x-apple-ql-id", "x-apple-ql-magic",
        ].contains(urlScheme.lowercased())
    }

    /// Navigates to `request`: stops the view's open tasks, then starts a task for it when its
    /// scheme has a handler.
    ///
    /// Mirrors `WKWebView.h`: `- (nullable WKNavigation *)loadRequest:(NSURLRequest *)request;`
    @discardableResult
    public func load(_ request: URLRequest) -> WKNavigation? {
        stopLoading()
        url = request.url
        if let url = request.url { navigations.append(url) }
        start(request)
        return WKNavigation(request: request)
    }

    /// Stops the view's open tasks.
    ///
    /// Mirrors `WKWebView.h`: `- (void)stopLoading;`
    public func stopLoading() {
        for task in openTasks { stop(task) }
    }

    /// The engine's side (test-only): the page requests `request` (a subresource, a `fetch`, a
    /// media range). Returns the task handed to the scheme handler, or `nil` when its scheme has none.
    @discardableResult
    public func start(
        _ request: URLRequest, keepsBody: Bool = true,
        onEvent: (@Sendable (StandInURLSchemeTask, StandInURLSchemeTask.Event) -> Void)? = nil
    ) -> StandInURLSchemeTask? {
        guard let scheme = request.url?.scheme, let handler = configuration.urlSchemeHandler(forURLScheme: scheme)
        else { return nil }
        let task = StandInURLSchemeTask(request: request, keepsBody: keepsBody, onEvent: onEvent)
        tasks.append(task)
        handler.webView(self, start: task)
        return task
    }

    /// The engine's side (test-only): WebKit gives up on `task` (the page navigated away, the
    /// element was removed, a media seek). Marks it stopped, then calls the handler's
    /// `webView(_:stop:)` — unless the task already completed, when WebKit calls nothing.
    public func stop(_ task: StandInURLSchemeTask) {
        guard task.markStopped(), let scheme = task.request.url?.scheme,
            let handler = configuration.urlSchemeHandler(forURLScheme: scheme)
        else { return }
        handler.webView(self, stop: task)
    }
}
