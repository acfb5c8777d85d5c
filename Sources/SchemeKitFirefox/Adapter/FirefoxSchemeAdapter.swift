#if Firefox
    public import SchemeKit
    import Foundation
    import SchemeKitBrowserSupport

    /// Serves virtual https origins to Firefox from a `SchemeRegistry`, through WebDriver
    /// BiDi's network interception: the Firefox engine adapter.
    ///
    /// ```swift
    /// let registry = SchemeRegistry()
    /// try registry.register(LocalFileHandler(root: appDirectory), for: "app")
    /// let browser = try await FirefoxBrowser.launch()
    /// let adapter = FirefoxSchemeAdapter(
    ///     registry: registry, browser: browser,
    ///     configuration: FirefoxAdapterConfiguration(origins: [VirtualOrigin(host: "app.localhost")]))
    /// try await adapter.start()
    /// let page = try await browser.newPage()
    /// try await page.navigate(to: "https://app.localhost/index.html")
    /// ```
    ///
    /// ## How a request is served
    /// ``start()`` subscribes to `network.beforeRequestSent` and adds one intercept
    /// (`network.addIntercept`, phase `beforeRequestSent`) with a URL pattern per origin. For each
    /// request the intercept holds, the adapter builds a `SchemeRequest` (method,
    /// headers, and the body of a `POST`, which Firefox hands over through `network.addDataCollector`
    /// and `network.getData`) for the registry URL, starts a registry task, collects the response
    /// (BiDi has no streaming answer) and answers `network.provideResponse` with status, reason,
    /// headers and the body as base64. Ranges, validators and MIME types are the handlers' own, as
    /// on every engine.
    ///
    /// ## Stops
    /// The task is stopped, and nothing more is sent for it, when the request's browsing context is
    /// closed (`browsingContext.contextDestroyed`), when the context commits a new document
    /// (`browsingContext.navigationCommitted`: the requests of the document it replaces), when
    /// ``FirefoxAdapterConfiguration/requestTimeout`` passes, and when the connection closes.
    /// Firefox reports nothing when a page aborts a held request (an aborted `fetch()`); the timeout
    /// ends such a task. Every case is counted in ``statistics``.
    ///
    /// ## Large bodies
    /// A body goes to Firefox in one WebSocket message, base64-encoded: one larger than
    /// ``maximumBodySize`` (about three quarters of the connection's maximum message size) fails its
    /// request with `EngineError.Code.bodyTooLarge`, naming the limit, and the connection stays
    /// up. Open-ended ranges are narrowed (``FirefoxAdapterConfiguration/openEndedRangeCap``, and
    /// never past ``maximumBodySize``) so media is fetched in parts that fit.
    public final class FirefoxSchemeAdapter: Sendable {
        /// The registry that answers.
        package let registry: SchemeRegistry
        /// The browser whose requests are served.
        package let browser: FirefoxBrowser
        /// The configuration.
        package let configuration: FirefoxAdapterConfiguration
        var connection: FirefoxConnection { browser.connection }

        package let state = Locked(State())

        /// The records of the requests that ended, for ``records(bufferLimit:)`` and renders.
        package let recordFeed = SchemeRequestRecordFeed()

        package struct Inflight: InflightRequest {
            package var task: SchemeTask?
            var context: String?
            var navigation: String?
            /// Firefox's time of the request (milliseconds since the epoch), to tell a new document's
            /// requests from the old one's when a navigation commits.
            var timestamp: Double?
            package var timer: Task<Void, Never>?
            var record: SchemeRequestRecord
        }

        package struct State: BrowserAdapterState {
            package var inflight: [String: Inflight] = [:]
            var statistics = EngineAdapterStatistics()
            var loop: Task<Void, Never>?
            var intercept: String?
            var collector: String?
            var collectorError: String?
            var subscription: String?
            /// The browser's loopback origin, while this adapter is served from it.
            var loopback: LoopbackOriginServer?
        }

        deinit {
            // An adapter dropped without stop(): its origins are no longer served for it.
            state.withLock { $0.loopback }?.forget(ObjectIdentifier(self))
        }

        /// Creates an adapter; nothing is intercepted until ``start()``.
        ///
        /// - Parameters:
        ///   - registry: The registry that answers requests.
        ///   - browser: A launched or attached ``FirefoxBrowser``.
        ///   - configuration: Origins and policies.
        public init(registry: SchemeRegistry, browser: FirefoxBrowser, configuration: FirefoxAdapterConfiguration) {
            self.registry = registry
            self.browser = browser
            self.configuration = configuration
        }

        /// The largest response body one message to Firefox can carry: the connection's maximum
        /// message size, less room for the rest of the message, as base64 (× 3/4).
        public var maximumBodySize: Int {
            let size = connection.maximumMessageSize
            let room = min(16 << 10, size / 8)
            return max(0, (size - room) / 4 * 3)
        }

        /// Starts serving the origins: from the browser's loopback https origin, or through BiDi's
        /// interception (`BrowserTransport`). On the loopback origin nothing is sent to Firefox.
        /// With interception the adapter subscribes to the events it needs, adds the intercept for
        /// every origin and a collector for request bodies. A second call while started does nothing.
        ///
        /// - Throws: `EngineError` when Firefox refuses a command (a collector it cannot add only
        ///   makes requests with a body fail, with a message saying why).
        public func start() async throws {
            guard state.withLock({ $0.loop == nil }) else { return }
            let server = configuration.transport == .automatic ? connection.loopbackOrigin : nil
            // A pass policy other than the registry's 404 needs the request held by the protocol.
            if let server, configuration.whenPassed == .notFound, !configuration.origins.isEmpty,
                configuration.origins.allSatisfy(LoopbackOriginRoute.canServe)
            {
                // Nothing is sent to Firefox: the sequence only tells when the connection closes.
                let events = connection.events(methods: [])
                let loop = Task { [weak self] in
                    for await _ in events {}
                    self?.connectionClosed()
                }
                server.add(
                    LoopbackOriginRoute(
                        origins: configuration.origins, registry: registry,
                        requestTimeout: configuration.requestTimeout,
                        maximumRequestBodySize: configuration.maximumRequestBodySize, client: self),
                    for: ObjectIdentifier(self))
                state.withLock { state in
                    state.loop = loop
                    state.loopback = server
                }
                return
            }
            let events = connection.events(methods: Self.eventNames)
            let loop = Task { [weak self] in
                for await event in events {
                    guard let self else { return }
                    self.handle(event)
                }
                self?.connectionClosed()
            }
            state.withLock { $0.loop = loop }
            let subscribed = try await connection.send(
                "session.subscribe", ["events": .array(Self.eventNames.sorted().map { .string($0) })])
            let patterns: [BiDiValue] = configuration.origins.map {
                ["type": "pattern", "protocol": "https", "hostname": .string($0.host)]
            }
            let intercept = try await connection.send(
                "network.addIntercept", ["phases": ["beforeRequestSent"], "urlPatterns": .array(patterns)])
            state.withLock { state in
                state.subscription = subscribed["subscription"]?.stringValue
                state.intercept = intercept["intercept"]?.stringValue
            }
            do {
                let collector = try await connection.send(
                    "network.addDataCollector",
                    // Firefox limits the encoded size (base64 for binary data); the decoded size is
                    // checked again when the body arrives.
                    ["dataTypes": ["request"], "maxEncodedDataSize": .int(encodedRequestBodyLimit)])
                state.withLock { $0.collector = collector["collector"]?.stringValue }
            } catch {
                state.withLock { $0.collectorError = "\(error)" }
            }
        }

        /// Stops intercepting (removes the intercept, the collector and the subscription) and stops
        /// every task in flight, failing the requests Firefox holds for them
        /// (`network.failRequest`): the page's `fetch()` rejects instead of waiting forever.
        public func stop() async {
            if let server = state.withLock({ $0.loopback }) {
                // Its requests in flight end here, as the adapter's, and their records are out first.
                await server.remove(ObjectIdentifier(self))
                let loop = state.withLock { state in
                    defer {
                        state.loop = nil
                        state.loopback = nil
                    }
                    return state.loop
                }
                loop?.cancel()
                await loop?.value
                connectionClosed()
                return
            }
            let (intercept, collector, subscription, loop) = state.withLock { state in
                defer {
                    state.intercept = nil
                    state.collector = nil
                    state.subscription = nil
                    state.loop = nil
                }
                return (state.intercept, state.collector, state.subscription, state.loop)
            }
            if !connection.isClosed {
                // BiDi keeps a request blocked after its intercept is removed: fail the held ones
                // first, or the page's fetch() would wait forever.
                let held = state.withLock { Array($0.inflight.keys) }
                for id in held { stopRequest(id, reason: .adapterStopped, tellFirefox: true) }
                if let intercept {
                    _ = try? await connection.send("network.removeIntercept", ["intercept": .string(intercept)])
                }
                if let collector {
                    _ = try? await connection.send("network.removeDataCollector", ["collector": .string(collector)])
                }
                if let subscription {
                    _ = try? await connection.send("session.unsubscribe", ["subscriptions": [.string(subscription)]])
                }
            }
            loop?.cancel()
            // The loop ends with its own `connectionClosed()`: wait for it, so that the stopped
            // requests' records are published before the record sequences end.
            await loop?.value
            connectionClosed()
        }

        /// The counters so far.
        public var statistics: EngineAdapterStatistics { state.withLock { $0.statistics } }

        /// A record for each request from now on, as it ends.
        ///
        /// - Parameter bufferLimit: How many records the sequence holds unread; past it the oldest is
        ///   dropped and counted in `EngineAdapterStatistics.droppedRecords` (requests are never
        ///   held up by a slow reader). Default: 1024.
        /// - Returns: A sequence that ends after the last record when the adapter stops or its
        ///   connection closes, or when the caller stops iterating.
        public func records(bufferLimit: Int = 1024) -> AsyncStream<SchemeRequestRecord> {
            recordFeed.subscribe(bufferLimit: bufferLimit)
        }

        static let eventNames: Set<String> = [
            "network.beforeRequestSent", "browsingContext.contextDestroyed", "browsingContext.navigationCommitted",
        ]

        /// The largest request body asked for: the configured limit, and what one message can carry.
        var requestBodyLimit: Int { min(configuration.maximumRequestBodySize, maximumBodySize) }

        /// The base64 length of a body of ``requestBodyLimit`` bytes: what Firefox counts of a binary body.
        var encodedRequestBodyLimit: Int { (requestBodyLimit + 2) / 3 * 4 }

        private func handle(_ event: BiDiEvent) {
            switch event.method {
            case "network.beforeRequestSent":
                guard event.params["isBlocked"]?.boolValue == true else { return }
                let intercept = state.withLock { $0.intercept }
                if let intercepts = event.params["intercepts"]?.arrayValue, let intercept,
                    !intercepts.contains(.string(intercept))
                {
                    return  // held by another client's intercept
                }
                do {
                    intercepted(
                        try BiDiRequestEvent(params: event.params), timestamp: event.params["timestamp"]?.doubleValue)
                } catch {
                    malformed(event.params, error)
                }
            case "browsingContext.contextDestroyed":
                var contexts: [String] = []
                collectContexts(event.params, into: &contexts)
                let ids = state.withLock { state in
                    state.inflight.filter { entry in entry.value.context.map(contexts.contains) ?? false }.map(\.key)
                }
                for id in ids { stopRequest(id, reason: .pageClosed, tellFirefox: false) }
            case "browsingContext.navigationCommitted":
                guard let context = event.params["context"]?.stringValue else { return }
                let navigation = event.params["navigation"]?.stringValue
                let committed = event.params["timestamp"]?.doubleValue
                let ids = state.withLock { state in
                    state.inflight.filter { entry in
                        guard entry.value.context == context,
                            entry.value.navigation == nil || entry.value.navigation != navigation
                        else { return false }
                        // A request made after the commit belongs to the new document.
                        if let committed, let made = entry.value.timestamp, made > committed { return false }
                        return true
                    }.map(\.key)
                }
                // Told to Firefox too: should a request belong to the new document after all, the
                // page sees a failed request rather than one that never ends.
                for id in ids { stopRequest(id, reason: .canceledByPage, tellFirefox: true) }
            default:
                break
            }
        }

        /// A context and, recursively, its children (`browsingContext.Info`).
        private func collectContexts(_ info: BiDiValue, into contexts: inout [String]) {
            if let context = info["context"]?.stringValue { contexts.append(context) }
            for child in info["children"]?.arrayValue ?? [] { collectContexts(child, into: &contexts) }
        }

        /// A held request whose event SchemeKit cannot read: failed when it can be named, so the
        /// page does not wait for it.
        private func malformed(_ params: BiDiValue, _ error: BiDiProtocolError) {
            guard let id = params["request"]?["request"]?.stringValue else {
                // No request to fail: counted all the same.
                state.withLock { $0.statistics.malformedEvents += 1 }
                return
            }
            state.withLock { $0.statistics.countMalformedRequest() }
            send("network.failRequest", ["request": .string(id)])
        }

        /// Stops every request in flight, then ends the record sequences.
        func connectionClosed() {
            let ids = state.withLock { Array($0.inflight.keys) }
            for id in ids { stopRequest(id, reason: .disconnected, tellFirefox: false) }
            recordFeed.finish()
        }
    }
#endif
