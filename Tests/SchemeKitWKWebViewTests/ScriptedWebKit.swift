import Foundation
import SchemeKit
import SchemeKitWKWebViewStandIn
import Synchronization
import WebKitStandIn

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A WebKit-like engine for the adapter's tests: one stand-in `WKWebView` whose configuration has
/// the adapter registered for the registry's schemes; requests are started and stopped on the main
/// actor, as WebKit does.
@MainActor
final class ScriptedWebKit {
    let registry: SchemeRegistry
    let adapter: WKWebViewSchemeAdapter
    let configuration = WKWebViewConfiguration()
    let webView: WKWebView

    init(registry: SchemeRegistry, options: WKSchemeAdapterOptions = WKSchemeAdapterOptions()) throws {
        self.registry = registry
        adapter = WKWebViewSchemeAdapter(registry: registry, options: options)
        try configuration.setURLSchemeHandler(adapter)
        webView = WKWebView(frame: .zero, configuration: configuration)
    }

    /// A request as WebKit builds it: a `POST` body only as `httpBodyStream`.
    static func request(
        _ url: String, method: String = "GET", headers: [String: String] = [:], bodyStream: InputStream? = nil,
        body: Data? = nil
    ) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let bodyStream { request.httpBodyStream = bodyStream }
        if let body { request.httpBody = body }
        return request
    }

    /// The page requests `url`; returns the task WebKit handed to the adapter.
    func start(
        _ request: URLRequest, keepsBody: Bool = true,
        onEvent: (@Sendable (StandInURLSchemeTask, StandInURLSchemeTask.Event) -> Void)? = nil
    ) -> StandInURLSchemeTask {
        webView.start(request, keepsBody: keepsBody, onEvent: onEvent)!
    }

    /// `GET url`, run until the task ends.
    func get(_ url: String, headers: [String: String] = [:]) async -> StandInURLSchemeTask {
        let task = start(Self.request(url, headers: headers))
        await task.waitForEnd()
        return task
    }

    /// WebKit gives up on `task`.
    func stop(_ task: StandInURLSchemeTask) {
        webView.stop(task)
    }
}

/// Counts handlers that started and returned, so a test can wait until every handler is done
/// (nothing can write after that) before it counts violations.
final class HandlerLedger: Sendable {
    private let counts = Locked((started: 0, returned: 0, cancelled: 0))

    var started: Int { counts.withLock { $0.started } }
    var returned: Int { counts.withLock { $0.returned } }
    /// Handlers that saw their Swift task cancelled (a stop) before they returned.
    var cancelled: Int { counts.withLock { $0.cancelled } }

    /// Runs `body` as a handler, counted.
    func run(_ body: () async throws -> SchemeHandlerOutcome) async throws -> SchemeHandlerOutcome {
        counts.withLock { $0.started += 1 }
        defer {
            let cancelled = Task.isCancelled
            counts.withLock {
                $0.returned += 1
                if cancelled { $0.cancelled += 1 }
            }
        }
        return try await body()
    }

    /// Whether every handler that started has returned.
    var settled: Bool { counts.withLock { $0.started == $0.returned } }
}

/// Drains the main queue: every job queued before this call has run when it returns.
func drainMainQueue() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume() }
    }
}
