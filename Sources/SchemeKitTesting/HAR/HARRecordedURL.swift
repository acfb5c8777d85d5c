public import Foundation
public import SchemeKit

/// Which URL a ``HARRecorder`` writes for a request (the entry's `request.url`).
///
/// The registry sees `app://localhost/a.js`; the page in the engine asked for something else —
/// headless Chromium's page for `https://app.localhost/a.js` (SchemeKitChromium's virtual origin),
/// a browser on `schemeserve` for `http://127.0.0.1:8080/a.js`. A HAR that another tool replays,
/// such as Playwright's `route_from_har`, which matches the URL the page requests, must hold the
/// page's URLs:
///
/// ```swift
/// let options = HARRecordingOptions(url: .origin(URL(string: "https://app.localhost")!))
/// let network = NetworkFallbackHandler(origin: URL(string: "https://www.example.com")!)
/// let recorder = HARRecorder(network, to: harFile, options: options)
/// // app://localhost/a.js?v=1 is recorded as https://app.localhost/a.js?v=1
/// ```
public struct HARRecordedURL: Sendable {
    private let transform: @Sendable (SchemeRequest) -> String

    private init(_ transform: @escaping @Sendable (SchemeRequest) -> String) {
        self.transform = transform
    }

    /// The registry's request URL, as the handler saw it (`app://localhost/a.js?v=1`). The default.
    public static let request = HARRecordedURL { $0.url.absoluteString }

    /// The request's URL moved to `origin`: its scheme, host and port replaced by `origin`'s (no
    /// port when `origin` has none), its path and query kept, `origin`'s path ignored.
    ///
    /// `.origin(URL(string: "https://app.localhost")!)` records `app://localhost/a.js?v=1` as
    /// `https://app.localhost/a.js?v=1`: what a page at SchemeKitChromium's virtual origin for the
    /// `app` scheme asked for.
    public static func origin(_ origin: URL) -> HARRecordedURL {
        HARRecordedURL { request in moving(request.url, to: origin) }
    }

    /// What `transform` returns for each request: any mapping of your own (keep the URL absolute,
    /// so that replay can match it).
    public static func custom(_ transform: @escaping @Sendable (SchemeRequest) -> String) -> HARRecordedURL {
        HARRecordedURL(transform)
    }

    /// The URL recorded for `request`.
    package func url(for request: SchemeRequest) -> String {
        transform(request)
    }

    /// `url` with the scheme, host and port of `origin`.
    static func moving(_ url: URL, to origin: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let target = URLComponents(url: origin, resolvingAgainstBaseURL: false)
        else { return url.absoluteString }
        components.scheme = target.scheme
        components.encodedHost = target.encodedHost
        components.port = target.port
        if components.percentEncodedPath.isEmpty { components.percentEncodedPath = "/" }
        return components.string ?? url.absoluteString
    }
}
