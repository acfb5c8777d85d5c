public import Foundation
import HTTPTypes
import Synchronization

/// Starts fetches before the engine asks, and lets identical requests share one upstream fetch —
/// VasSonic's preloading, on any engine.
///
/// ```swift
/// let preloader = Preloader(allowedHosts: ["m.example.com"])
/// preloader.preload(URL(string: "app://m.example.com/index.html")!)   // while the web view is created
/// try registry.register(PreloadHandler(preloader: preloader), for: "app")
/// // The engine's request for app://m.example.com/index.html attaches to the running fetch.
/// ```
///
/// ## Behaviour
/// - **Attach.** An engine GET for the same URL (normalised: scheme and host case, default port,
///   no fragment; see ``NetworkRewriter`` — `app://` and its `https://` target meet) attaches to
///   the running fetch: it gets the bytes already received at once, then the rest as they arrive.
///   The engine's request headers are not sent upstream for a fetch it joins: the fetch carries
///   the headers of whoever started it (the preload's, or the first request's).
/// - **Coalescing.** Identical concurrent GETs share one upstream fetch; each task gets the full
///   stream from the first byte (a broadcast buffer, one cursor per task). `HEAD`, requests with a
///   body, `Range` and `Authorization` requests are never coalesced: they go to the network
///   directly.
/// - **Holders.** A preload holds its fetch until the first task claims it, it expires, it is
///   evicted or ``cancelPreload(_:)``. A stopped task detaches without disturbing the others; the
///   upstream request is cancelled only when no task and no preload holds it.
/// - **Expiry.** An unclaimed preload is dropped ``Configuration/expiry`` after it started
///   (checked on every call, and by ``removeExpired()``).
/// - **Memory, per fetch (back-pressure).** A fetch buffers at most
///   ``Configuration/fetchBufferLimit`` unread bytes (plus one chunk): past it the upstream stops
///   reading (and so pauses the HTTP client's own bounded buffer) until the *slowest* attached
///   task has caught up to a quarter of it. An unclaimed preload stops there and waits for its
///   task. Chunks every attached task has read are dropped once the buffer passes the limit, so
///   a claimed large fetch never holds its whole body.
/// - **Late requests.** A request joins a running fetch only while the fetch still has its first
///   byte; once its readers are past the window and its start was dropped, a new request for the
///   URL starts a fetch of its own (which replaces the old one for later requests) — it never gets
///   a body without its beginning. The old fetch's tasks keep theirs.
/// - **Memory, overall.** Buffered bytes of all fetches are counted; above
///   ``Configuration/memoryLimit`` the oldest unclaimed preload is dropped. A fetch that left the
///   table (complete, or claimed and complete) keeps only the chunks some task has not read yet.
/// - **Timeouts.** ``NetworkUpstream/timeout`` bounds the whole upstream exchange, time spent
///   waiting for a slow reader included: an unclaimed preload larger than
///   ``Configuration/fetchBufferLimit`` that nobody claims within it fails (its task then gets
///   what was buffered, then a failure).
/// - **Hosts.** As ``NetworkFallbackHandler``: an engine request whose host is not in
///   ``allowedHosts`` (or that resolves to a private address not listed) is answered 403 and
///   never fetched, joined preload or not. ``preload(_:headerFields:)`` fetches what the app names.
/// - **Failures.** As ``NetworkFallbackHandler``: 502/504 before the head, a failed task after.
/// - **Timings.** Each engine request's ``PreloadTiming`` goes to ``Configuration/onTiming`` and
///   to ``recentTimings``.
public final class Preloader: Sendable {
    /// Options of a ``Preloader``.
    public struct Configuration: Sendable {
        /// How long an unclaimed preload is kept. Default: 3 minutes (VasSonic's default).
        public var expiry: Duration
        /// The most body bytes buffered across all fetches before unclaimed preloads are dropped,
        /// oldest first. Default: 32 MiB.
        public var memoryLimit: Int
        /// How many timings ``Preloader/recentTimings`` keeps. Default: 64.
        public var timingHistory: Int
        /// The most unread body bytes one fetch buffers before its upstream waits for the slowest
        /// reader (the high watermark; reading resumes at a quarter of it). Default: 2 MiB.
        public var fetchBufferLimit: Int
        /// Called with each engine request's timing when it ends. Default: `nil`.
        public var onTiming: (@Sendable (PreloadTiming) -> Void)?

        /// Creates options.
        ///
        /// - Parameters:
        ///   - expiry: Unclaimed preload lifetime. Default: 180 s.
        ///   - memoryLimit: Buffered bytes bound. Default: 32 MiB.
        ///   - timingHistory: Timings kept. Default: 64.
        ///   - fetchBufferLimit: Unread bytes one fetch buffers before pausing. Default: 2 MiB.
        ///   - onTiming: Timing observer. Default: none.
        public init(
            expiry: Duration = .seconds(180),
            memoryLimit: Int = 32 << 20,
            timingHistory: Int = 64,
            fetchBufferLimit: Int = 2 << 20,
            onTiming: (@Sendable (PreloadTiming) -> Void)? = nil
        ) {
            self.expiry = expiry
            self.memoryLimit = memoryLimit
            self.timingHistory = timingHistory
            self.fetchBufferLimit = fetchBufferLimit
            self.onTiming = onTiming
        }
    }

    private struct State {
        var entries: [PreloadKey: PreloadFetch] = [:]
        var sequence = 0
        var timings: [PreloadTiming] = []
        var metrics = PreloadMetrics(
            upstreamFetches: 0,
            preloadsStarted: 0,
            preloadsClaimed: 0,
            joined: 0,
            expired: 0,
            evicted: 0,
            cancelled: 0
        )
    }

    /// The client, rewriting and timeouts.
    package let upstream: NetworkUpstream
    /// The options.
    package let configuration: Configuration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let memory = PreloadMemory()
    private let state = Locked(State())
    private let direct: NetworkFallbackHandler

    /// Creates a preloader.
    ///
    /// - Parameters:
    ///   - allowedHosts: The hosts an engine request may name, as for ``NetworkFallbackHandler``
    ///     (no default).
    ///   - upstream: The client, rewriting and timeouts. Default: URLSession, https.
    ///   - configuration: Expiry, memory bound, timings. Default: 3 min, 32 MiB, 64.
    ///   - now: The clock expiry is measured on; inject one in tests. Default: the continuous clock.
    public init(
        allowedHosts: NetworkAllowedHosts,
        upstream: NetworkUpstream = NetworkUpstream(),
        configuration: Configuration = Configuration(),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.upstream = upstream
        self.configuration = configuration
        self.now = now
        self.direct = NetworkFallbackHandler(allowedHosts: allowedHosts, upstream: upstream)
    }

    /// The hosts an engine request may name (``NetworkAllowedHosts``).
    public var allowedHosts: NetworkAllowedHosts { direct.allowedHosts }

    // MARK: Preloading

    /// Starts fetching `url` now, so the engine's request for it finds bytes waiting.
    ///
    /// - Parameters:
    ///   - url: The URL the engine will ask for (`app://…`) or its network equivalent.
    ///   - headerFields: Header fields for the upstream request, of which those
    ///     ``NetworkUpstream/forwarding`` sends are sent. Default: none.
    /// - Returns: Whether a fetch started; `false` when `url` has no host, or a fetch for it is
    ///   already running or waiting.
    @discardableResult
    public func preload(_ url: URL, headerFields: HTTPFields = [:]) -> Bool {
        guard
            let (request, target) = upstream.clientRequest(
                url: url, method: .get, headerFields: headerFields, body: nil)
        else { return false }
        let key = PreloadKey(method: .get, logicalURL: target.logicalURL)
        let fetch = state.withLock { state -> PreloadFetch? in
            expireLocked(&state)
            if let existing = state.entries[key], !existing.hasFailed { return nil }
            let fetch = makeFetchLocked(&state, key: key, url: target.logicalURL, preload: true)
            state.metrics.preloadsStarted += 1
            return fetch
        }
        guard let fetch else { return false }
        start(fetch, request)
        enforceMemoryBound()
        return true
    }

    /// Drops the unclaimed preload of `url`, cancelling its fetch. Tasks already attached keep
    /// theirs.
    ///
    /// - Returns: Whether an unclaimed preload was dropped.
    @discardableResult
    public func cancelPreload(_ url: URL) -> Bool {
        guard let key = key(for: url) else { return false }
        return state.withLock { state in
            guard let fetch = state.entries[key], fetch.isUnclaimedPreload else { return false }
            drop(fetch, from: &state)
            return true
        }
    }

    /// Whether an unclaimed preload of `url` is waiting (running or complete).
    public func isPreloaded(_ url: URL) -> Bool {
        guard let key = key(for: url) else { return false }
        return state.withLock { state in
            expireLocked(&state)
            return state.entries[key]?.isUnclaimedPreload ?? false
        }
    }

    /// Drops every unclaimed preload older than ``Configuration/expiry``.
    public func removeExpired() {
        state.withLock { expireLocked(&$0) }
    }

    /// Body bytes buffered by all fetches right now.
    package var bufferedBytes: Int { memory.bytes.load(ordering: .relaxed) }

    /// Fetches whose upstream reader is suspended right now because their slowest reader (or an
    /// unclaimed preload's whole buffer) is a window behind: their buffers cannot grow until a
    /// reader catches up. For tests, which wait for this state instead of for a time.
    package var pausedFetches: Int {
        state.withLock { state in state.entries.values.count { $0.upstreamIsWaiting } }
    }

    /// The last ``Configuration/timingHistory`` engine request timings, oldest first.
    public var recentTimings: [PreloadTiming] { state.withLock { $0.timings } }

    /// Counters.
    public var metrics: PreloadMetrics { state.withLock { $0.metrics } }

    // MARK: Serving

    /// Answers an engine request from a running or new shared fetch; used by ``PreloadHandler``.
    func serve(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
        guard
            let (unchecked, target) = upstream.clientRequest(
                url: request.url,
                method: request.method,
                headerFields: request.headerFields,
                body: nil
            )
        else { return .passed }
        let clientRequest: SchemeHTTPClientRequest
        switch await direct.gate.admit(unchecked, to: target) {
        case .admitted(let admitted):
            clientRequest = admitted
        case .refused(let reason):
            state.withLock { $0.metrics.refusedHosts += 1 }
            let refusal = NetworkFallbackHandler.refusal(reason, for: request)
            try await writer.respond(refusal.head, body: refusal.body)
            return .handled
        case .unresolved(let error):
            let (head, body) = NetworkUpstream.gatewayResponse(for: error)
            try await writer.respond(head, body: request.method == .head ? Data() : body)
            return .handled
        }
        guard request.method == .get, request.body.isEmpty, request.headerFields[.range] == nil,
            request.headerFields[.authorization] == nil
        else {
            // The direct handler checks the host again, from the answer kept just now.
            return try await serveDirect(request, writer: writer)
        }
        let asked = ContinuousClock.now
        let key = PreloadKey(method: .get, logicalURL: target.logicalURL)
        let (fetch, id, source, isNew) = state.withLock { state -> (PreloadFetch, Int, PreloadTiming.Source, Bool) in
            expireLocked(&state)
            if let existing = state.entries[key], let (id, claimed) = existing.attach() {
                if claimed {
                    state.metrics.preloadsClaimed += 1
                    if existing.isEnded {
                        // A finished preload served its purpose: the next request fetches afresh.
                        state.entries[key] = nil
                        existing.close()
                    }
                } else {
                    state.metrics.joined += 1
                }
                return (existing, id, claimed ? .preload : .joined, false)
            }
            let fetch = makeFetchLocked(&state, key: key, url: target.logicalURL, preload: false)
            let (id, _) = fetch.attach()!
            return (fetch, id, .network, true)
        }
        if isNew { start(fetch, clientRequest) }

        var timing = PreloadTiming(
            url: target.logicalURL,
            source: source,
            outcome: .stopped,
            headStart: source == .network ? nil : asked - fetch.startedAt,
            bytes: 0
        )
        defer {
            if fetch.detach(id) { state.withLock { $0.metrics.cancelled += 1 } }
            record(timing)
        }
        return try await stream(fetch, cursor: id, for: request.url, to: writer, asked: asked, timing: &timing)
    }

    private func stream(
        _ fetch: PreloadFetch,
        cursor id: Int,
        for page: URL,
        to writer: some SchemeResponseWriter,
        asked: ContinuousClock.Instant,
        timing: inout PreloadTiming
    ) async throws -> SchemeHandlerOutcome {
        guard let first = await fetch.update(for: id, headSent: false) else { throw CancellationError() }
        switch first {
        case .head(let head):
            try await writer.writeHead(NetworkUpstream.response(head, from: fetch.logicalURL, forPage: page))
            timing.wait = .now - asked
        case .failed(let error):
            if error is CancellationError { throw error }
            let (head, body) = NetworkUpstream.gatewayResponse(for: error)
            try await writer.respond(head, body: body)
            timing.wait = .now - asked
            timing.outcome = .failed
            return .handled
        case .chunks, .finished:
            throw SchemeHTTPClientError(.invalidResponse, detail: "body before head")
        }
        while true {
            guard let update = await fetch.update(for: id, headSent: true) else { throw CancellationError() }
            switch update {
            case .head:
                continue
            case .chunks(let chunks):
                for chunk in chunks {
                    try await writer.write(chunk)
                    if timing.firstByte == nil { timing.firstByte = .now - asked }
                    timing.bytes += chunk.count
                }
            case .finished:
                try await writer.finish()
                timing.done = .now - asked
                timing.outcome = .finished
                return .handled
            case .failed(let error):
                if error is CancellationError { throw error }
                timing.outcome = .failed
                try await writer.fail(error)
                return .handled
            }
        }
    }

    private func serveDirect(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws
        -> SchemeHandlerOutcome
    {
        let asked = ContinuousClock.now
        let observed = TimingWriter(base: writer, asked: asked)
        var timing = PreloadTiming(
            url: upstream.rewriter.target(for: request.url)?.logicalURL ?? request.url,
            source: .direct,
            outcome: .stopped,
            bytes: 0
        )
        defer {
            observed.fill(&timing)
            record(timing)
        }
        return try await direct.handle(request, writer: observed)
    }

    // MARK: Internals

    private func key(for url: URL) -> PreloadKey? {
        upstream.rewriter.target(for: url).map { PreloadKey(method: .get, logicalURL: $0.logicalURL) }
    }

    private func makeFetchLocked(_ state: inout State, key: PreloadKey, url: URL, preload: Bool) -> PreloadFetch {
        if let stale = state.entries[key] { stale.close() }
        state.sequence += 1
        state.metrics.upstreamFetches += 1
        let fetch = PreloadFetch(
            key: key,
            logicalURL: url,
            createdAt: now(),
            sequence: state.sequence,
            preload: preload,
            memory: memory,
            bufferLimit: configuration.fetchBufferLimit
        )
        state.entries[key] = fetch
        return fetch
    }

    private func start(_ fetch: PreloadFetch, _ request: SchemeHTTPClientRequest) {
        let upstream = self.upstream
        let task = Task {
            do {
                let response = try await upstream.client.send(request)
                fetch.receive(head: upstream.schemeResponse(for: response.head))
                for try await chunk in response.body {
                    fetch.receive(chunk)
                    self.enforceMemoryBound()
                    // Back-pressure: stop pulling (so the client pauses too) while the slowest
                    // reader is a window behind.
                    await fetch.waitForRoom()
                }
                try Task.checkCancellation()
                fetch.complete()
            } catch {
                fetch.fail(error)
            }
            self.fetchEnded(fetch)
        }
        fetch.start(task)
    }

    private func fetchEnded(_ fetch: PreloadFetch) {
        state.withLock { state in
            guard state.entries[fetch.key] === fetch else { return }
            // A complete, unclaimed preload waits for its task (or expiry); anything else leaves
            // the table so the next request fetches afresh.
            if fetch.isUnclaimedPreload && fetch.isComplete { return }
            state.entries[fetch.key] = nil
            fetch.close()
        }
    }

    /// Drops an unclaimed preload: out of the table, hold released (cancelling its fetch).
    private func drop(_ fetch: PreloadFetch, from state: inout State) {
        state.entries[fetch.key] = nil
        fetch.close()
        if fetch.releasePreload() { state.metrics.cancelled += 1 }
    }

    private func expireLocked(_ state: inout State) {
        let deadline = now() - configuration.expiry
        let expired = state.entries.values.filter { $0.createdAt <= deadline && $0.isUnclaimedPreload }
        for fetch in expired {
            drop(fetch, from: &state)
            state.metrics.expired += 1
        }
    }

    private func enforceMemoryBound() {
        guard memory.bytes.load(ordering: .relaxed) > configuration.memoryLimit else { return }
        state.withLock { state in
            while memory.bytes.load(ordering: .relaxed) > configuration.memoryLimit {
                let oldest = state.entries.values.filter(\.isUnclaimedPreload).min { $0.sequence < $1.sequence }
                guard let oldest else { return }
                drop(oldest, from: &state)
                state.metrics.evicted += 1
            }
        }
    }

    private func record(_ timing: PreloadTiming) {
        state.withLock { state in
            state.timings.append(timing)
            if state.timings.count > max(0, configuration.timingHistory) {
                state.timings.removeFirst(state.timings.count - max(0, configuration.timingHistory))
            }
        }
        configuration.onTiming?(timing)
    }
}
