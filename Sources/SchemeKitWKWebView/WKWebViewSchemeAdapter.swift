#if SCHEMEKIT_WEBKIT_STANDIN
    public import WebKitStandIn
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif
#elseif canImport(WebKit)
    public import WebKit
#endif

#if SCHEMEKIT_WEBKIT_STANDIN || canImport(WebKit)
    public import Foundation
    public import SchemeKit

    /// Serves a `SchemeRegistry`'s schemes to `WKWebView`s: the `WKURLSchemeHandler`.
    ///
    /// Each `WKURLSchemeTask` becomes one guarded `SchemeTask` of the registry (the handler is
    /// asked once, in ``webView(_:start:)``):
    /// - method, header fields and body become a `SchemeRequest`. The body comes from `httpBody`
    ///   or, as WebKit gives a `POST` body, from `httpBodyStream`, read as the handler asks, off the
    ///   main thread, up to ``WKSchemeAdapterOptions/maximumRequestBodySize`` (past it: `413`);
    /// - the handler runs in a Swift task of its own, never on the main thread; what it writes
    ///   reaches the `WKURLSchemeTask` on the main actor, in WebKit's order: one `HTTPURLResponse`
    ///   (status and header fields), data in pieces of at most ``WKSchemeAdapterOptions/pieceSize``,
    ///   then `didFinish` — or `didFailWithError` when the handler throws;
    /// - a handler's body write returns once its piece has been handed to WebKit, so at most one
    ///   piece per task waits on the main queue: a 1 GiB file streams with bounded memory;
    /// - ``webView(_:stop:)`` stops the task. Once it returns, nothing more reaches that
    ///   `WKURLSchemeTask` (the five misuses WebKit raises `NSInternalInconsistencyException` for
    ///   cannot happen), and the handler's own Swift task is cancelled.
    ///
    /// ```swift
    /// let adapter = WKWebViewSchemeAdapter(registry: registry)
    /// let configuration = WKWebViewConfiguration()
    /// try configuration.setURLSchemeHandler(adapter)
    /// let webView = WKWebView(frame: .zero, configuration: configuration)
    /// webView.load(URLRequest(url: URL(string: "app://localhost/index.html")!))
    /// ```
    ///
    /// ## Redirects
    /// The public `WKURLSchemeTask` API has no redirect call (`_willPerformRedirection:` is private
    /// SPI, which the adapter does not use). A handler's `3xx` response is handed to WebKit as it is,
    /// with its `Location` field; whether WebKit follows it is WebKit's choice and not relied on.
    /// To move a page, answer with the target's content, or with a page that sets
    /// `location.replace(…)`.
    ///
    /// ## Ranges
    /// `<video>` and `<audio>` read with `Range` requests; they reach the handlers as on every other
    /// engine (`LocalFileHandler` answers `206` with `Content-Range`), and a seek stops the running
    /// range (``webView(_:stop:)``) and starts another.
    ///
    /// ## What a custom scheme cannot do
    /// `document.cookie` stays empty and service workers do not register on a custom scheme: WebKit
    /// limits both to http(s). See the README's engine table.
    ///
    /// ## The blank page
    /// Every scheme of the registry answers ``blankPath`` itself with an empty HTML page (no
    /// handler runs): what a pooled view (``WKWebViewSession``) shows between holders, so it stays
    /// on the app's origin.
    @MainActor
    public final class WKWebViewSchemeAdapter: NSObject, WKURLSchemeHandler {
        /// The registry answering requests.
        public let registry: SchemeRegistry
        /// The adapter's options.
        public let options: WKSchemeAdapterOptions

        private struct Live {
            let bridge: WKSchemeTaskBridge
            var task: SchemeTask?
            let bodyReader: HTTPBodyStreamReader?
        }

        /// The tasks WebKit started and neither ended nor stopped, by `WKURLSchemeTask` identity.
        private var live: [ObjectIdentifier: Live] = [:]

        /// Creates the handler of `registry`'s schemes; register it with
        /// `WKWebViewConfiguration.setURLSchemeHandler(_:)`.
        ///
        /// - Parameters:
        ///   - registry: The handlers. Schemes registered later are not seen by configurations set up
        ///     before: build the registry first.
        ///   - options: Piece size, request-body limit, CORS. Default: ``WKSchemeAdapterOptions/init(pieceSize:maximumRequestBodySize:cors:)``'s defaults.
        public init(registry: SchemeRegistry, options: WKSchemeAdapterOptions = WKSchemeAdapterOptions()) {
            self.registry = registry
            self.options = options
            super.init()
        }

        /// The path of the empty page the adapter answers itself on every scheme: `/.schemekit/blank`.
        public static let blankPath = "/.schemekit/blank"

        /// The blank page URL for `scheme` and `host`: `scheme://host/.schemekit/blank`.
        public static func blankURL(scheme: String, host: String = "localhost") -> URL {
            URL(string: "\(scheme)://\(host)\(blankPath)")!
        }

        /// Requests started and not yet finished, failed or stopped.
        public var liveTaskCount: Int { live.count }

        // MARK: WKURLSchemeHandler

        /// Starts answering `urlSchemeTask` (WebKit calls this on the main thread).
        ///
        /// A response known at once (a small cached file, a 304, a 404, a refusal) is handed to the
        /// task before this returns; otherwise the handler runs in a Swift task of its own.
        public func webView(_ webView: WKWebView, start urlSchemeTask: any WKURLSchemeTask) {
            let urlRequest = urlSchemeTask.request
            guard let url = urlRequest.url else {
                return urlSchemeTask.didFailWithError(EngineError(.invalidRequest, "the request has no URL"))
            }
            let method = urlRequest.httpMethod ?? "GET"
            var fields = HTTPFields()
            for (name, value) in urlRequest.allHTTPHeaderFields ?? [:] {
                if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
            }
            let cors = options.cors?.responseFields(origin: fields[.origin]) ?? [:]
            let bridge = WKSchemeTaskBridge(
                schemeTask: urlSchemeTask, url: url, pieceSize: options.pieceSize, sendsBody: method != "HEAD",
                extraFields: cors, adapter: self)
            if url.path == Self.blankPath {
                let (head, body) = (SchemeResponse(status: .ok, mimeType: "text/html"), Data(Self.blankHTML.utf8))
                return bridge.deliver(SchemeCollectedResponse(head: head, body: body))
            }
            let limit = options.maximumRequestBodySize
            var body = SchemeRequestBody.empty
            var bodyReader: HTTPBodyStreamReader?
            if let data = urlRequest.httpBody {
                guard data.count <= limit else { return bridge.deliver(Self.tooLarge) }
                body = .bytes(data)
            } else if let stream = urlRequest.httpBodyStream {
                if let length = fields[.contentLength].flatMap({ Int($0) }), length > limit {
                    return bridge.deliver(Self.tooLarge)
                }
                let reader = HTTPBodyStreamReader(stream, limit: limit)
                body = reader.body
                bodyReader = reader
            }
            let request: SchemeRequest
            do {
                guard let parsedMethod = HTTPRequest.Method(method) else {
                    throw EngineError(.invalidRequest, "\(url): the method \"\(method)\" is not an HTTP token")
                }
                request = try SchemeRequest(
                    SchemeRequest.droppingFragment(url.absoluteString), method: parsedMethod, headerFields: fields,
                    body: body)
            } catch {
                bodyReader?.stop()
                return bridge.fail(error)
            }
            if let preflight = options.cors?.preflightResponse(to: request) {
                bodyReader?.stop()
                return bridge.deliver(SchemeCollectedResponse(head: preflight, body: Data()))
            }
            let key = ObjectIdentifier(urlSchemeTask)
            switch registry.answer(for: request, sink: WKSchemeTaskSink(bridge: bridge)) {
            case .response(let response):
                bodyReader?.stop()
                bridge.deliver(response)
            case .task(let task):
                live[key] = Live(bridge: bridge, task: task, bodyReader: bodyReader)
                task.start()
            }
        }

        /// Stops `urlSchemeTask` (WebKit calls this on the main thread when the page no longer wants
        /// it). Once this returns, nothing more reaches the task; the handler's work is cancelled.
        public func webView(_ webView: WKWebView, stop urlSchemeTask: any WKURLSchemeTask) {
            guard let entry = live.removeValue(forKey: ObjectIdentifier(urlSchemeTask)) else { return }
            entry.bridge.stopped = true
            entry.task?.stop()
            entry.bodyReader?.stop()
        }

        /// A bridge delivered its terminal call.
        func ended(_ key: ObjectIdentifier) {
            live.removeValue(forKey: key)?.bodyReader?.stop()
        }

        // MARK: Helpers

        private static let blankHTML = "<!doctype html><title></title>"

        private static var tooLarge: SchemeCollectedResponse {
            let (head, body) = WKSchemeTaskBridge.plainText(.contentTooLarge, "Content Too Large\n")
            return SchemeCollectedResponse(head: head, body: body)
        }
    }
#endif
