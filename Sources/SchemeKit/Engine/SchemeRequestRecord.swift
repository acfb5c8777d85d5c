/// What happened to one request an engine adapter handed to a registry: the same record from
/// every engine (`WebKitSchemeAdapter`, `ChromiumSchemeAdapter`, `FirefoxSchemeAdapter`), for
/// reports such as `headless-render --json`, access logs and tests.
///
/// An adapter publishes one record per request when the request ends, through its
/// `records(bufferLimit:)` sequence:
///
/// ```swift
/// for await record in adapter.records() {
///     print(record.method, record.registryURL, record.status ?? 0, record.bytes, record.outcome)
/// }
/// ```
public struct SchemeRequestRecord: Sendable {
    /// How a request ended.
    public enum Outcome: Sendable, Hashable {
        /// A handler's answer reached the engine in full: head, body and finish.
        case answered
        /// Every handler passed and the adapter sent the request on to the network (the browser
        /// adapters' `continueRequest` pass policy).
        case continued
        /// The request failed: the handler threw, or the engine could not take the answer (a body
        /// over its limit). ``SchemeRequestRecord/error`` says why.
        case failed
        /// The task was stopped before it ended, for `reason`: the same reasons on every engine.
        case stopped(reason: StopReason)
    }

    /// Why an engine adapter stopped a request's task: one set on every engine, so that code
    /// reading records works the same on all three. Its `rawValue` is the case's name.
    public enum StopReason: String, Sendable, Hashable {
        /// The page no longer wanted the request: WebKitGTK canceled its scheme request (an
        /// aborted `fetch()`, a media element seeking, a new page load), Chromium's
        /// `Network.loadingFailed` with `canceled: true`, or Firefox's context committed a new
        /// document (`browsingContext.navigationCommitted`).
        case canceledByPage
        /// The page went away with the request: Chromium's target was destroyed, detached or
        /// crashed; Firefox's `browsingContext.contextDestroyed`. (WebKitGTK reports a closed web
        /// view's requests as ``canceledByPage``: it does not say which it was.)
        case pageClosed
        /// The adapter configuration's `requestTimeout` passed; the page's request was failed.
        case timedOut
        /// The handler answered, but the browser refused the answer because the request was
        /// already gone (Chromium's `-32602`, Firefox's `no such request`).
        case rejected
        /// The adapter's `stop()` ended the request (Firefox's page sees a network error).
        case adapterStopped
        /// The connection to the browser closed while the request was held.
        case disconnected
    }

    /// The URL the engine asked for: `app://localhost/x` on WebKitGTK, the virtual origin's
    /// `https://app.localhost/x` on Chromium and Firefox.
    public var url: String
    /// The registry URL it was served as (`app://localhost/x`).
    public var registryURL: String
    /// The request method.
    public var method: String
    /// What the engine says the request is for, when it says: Chromium's `resourceType`
    /// (`Document`, `Script`, `Media`, `Fetch`, …), Firefox's fetch destination (`document`,
    /// `script`, `video`, …; empty for `fetch()`); `nil` on WebKitGTK.
    public var resourceType: String?
    /// The response status, once a head was written.
    public var status: Int?
    /// Body bytes handed to the engine.
    public var bytes: Int
    /// The handler that answered (`"not-found"` for the registry's 404), when one did.
    public var handler: String?
    /// How the request ended.
    public var outcome: Outcome
    /// Why the request failed, when ``outcome`` is ``Outcome/failed``: the engine adapter's
    /// ``EngineError`` or the error the handler threw; `nil`
    /// otherwise.
    public var error: (any Error)?
    /// From the moment the engine handed the request over to its end (the answer sent, the
    /// failure or the stop).
    public var duration: Duration

    /// When the engine handed the request over: what ``duration`` is measured from.
    package var started: ContinuousClock.Instant

    /// Creates a record of a request that has not ended yet: no status, no bytes, ``Outcome/answered``.
    package init(url: String, registryURL: String, method: String, resourceType: String? = nil) {
        self.url = url
        self.registryURL = registryURL
        self.method = method
        self.resourceType = resourceType
        self.status = nil
        self.bytes = 0
        self.handler = nil
        self.outcome = .answered
        self.error = nil
        self.duration = .zero
        self.started = .now
    }

    /// Marks the record ``Outcome/failed`` because of `error`.
    package mutating func fail(_ error: any Error) {
        outcome = .failed
        self.error = error
    }
}
