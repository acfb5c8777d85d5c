#if Chromium || Firefox || WebKitGTK
    package import SchemeKit

    /// What one browser adapter serves from its browser's loopback origin: the hosts of its
    /// virtual origins, answered from its registry, with its policies.
    package struct LoopbackOriginRoute: Sendable {
        /// The origins served (each host is `localhost` or ends in `.localhost`).
        package var origins: [VirtualOrigin]
        /// The registry that answers.
        package var registry: SchemeRegistry
        /// How long a request may take before its task is stopped and its connection closed;
        /// `nil` for no limit.
        package var requestTimeout: Duration?
        /// The largest request body read into a request, in bytes; a larger one is answered 413.
        package var maximumRequestBodySize: Int
        /// Where the route's requests are counted and their records published (held weakly: an
        /// adapter dropped without `stop()` no longer counts).
        package var client: LoopbackClientReference

        /// A route; every parameter is the property of the same name.
        package init(
            origins: [VirtualOrigin], registry: SchemeRegistry, requestTimeout: Duration?,
            maximumRequestBodySize: Int, client: some LoopbackOriginClient
        ) {
            self.origins = origins
            self.registry = registry
            self.requestTimeout = requestTimeout
            self.maximumRequestBodySize = maximumRequestBodySize
            self.client = LoopbackClientReference(client)
        }

        /// Whether a loopback origin can serve `origin`: a host under `.localhost` (RFC 6761: never
        /// on the network), with no port of its own.
        package static func canServe(_ origin: VirtualOrigin) -> Bool {
            let host = origin.host.lowercased()
            return !host.contains(":") && !host.contains("/") && (host == "localhost" || host.hasSuffix(".localhost"))
        }
    }

    /// A weak reference to a route's adapter.
    package final class LoopbackClientReference: Sendable {
        private struct Reference {
            weak var client: (any LoopbackOriginClient)?
        }

        private let reference: Locked<Reference>

        init(_ client: some LoopbackOriginClient) {
            reference = Locked(Reference(client: client))
        }

        /// A request of the page reached the registry.
        func began() { reference.withLock { $0.client }?.loopbackRequestBegan() }

        /// A request ended.
        func ended(_ record: SchemeRequestRecord) { reference.withLock { $0.client }?.loopbackRequestEnded(record) }
    }

    /// The adapter behind a ``LoopbackOriginRoute``: counts its requests and publishes their records.
    package protocol LoopbackOriginClient: AnyObject, Sendable {
        /// A request of the page reached the adapter's registry.
        func loopbackRequestBegan()
        /// A request ended (answered, failed or stopped, as its outcome says): count and publish it.
        func loopbackRequestEnded(_ record: SchemeRequestRecord)
    }
#endif
