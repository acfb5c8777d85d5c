import HTTPTypes

/// Handlers by scheme, host and path prefix; the entry point every engine adapter calls.
///
/// The registry turns each engine request into a guarded ``SchemeTask``: it picks the handler
/// (a route for the request's host beats a route for any host; among those the longest matching
/// path prefix wins, by whole segments), answers methods the handler does not support with 405,
/// answers requests no handler takes with a plain-text 404, and counts every task in ``metrics``.
///
/// ```swift
/// let registry = SchemeRegistry()
/// try registry.register(LocalFileHandler(root: appDirectory), for: "app")
/// try registry.register(apiHandler, for: "app", pathPrefix: "/api")
///
/// // In the engine adapter, for each request:
/// let task = registry.task(for: request, sink: engineSink)
/// task.start()               // and task.stop() when the engine gives up
/// ```
///
/// The registry is `Sendable`; registration and dispatch may happen from any thread.
public final class SchemeRegistry: Sendable {
    private let table = LockedRouteTable()
    let counters = SchemeTaskCounters()

    /// Creates an empty registry.
    public init() {}

    /// Registers `handler` for `scheme`, optionally only for one host and a path prefix.
    ///
    /// - Parameters:
    ///   - handler: The handler; wrap several in a ``SchemeHandlerChain``.
    ///   - scheme: The scheme name, case-insensitive (`"app"`).
    ///   - host: Only requests for this host (case-insensitive). Default: any host.
    ///   - pathPrefix: Only paths under this prefix, by whole segments. Default: `/`, every path.
    ///
    /// The handler's ``SchemeHandler/name`` and ``SchemeHandler/supportedMethods`` are read once,
    /// here, not per request.
    /// - Throws: ``SchemeRegistryError`` for an invalid or reserved scheme, a prefix not starting
    ///   with `/`, or a route already taken.
    public func register(
        _ handler: some SchemeHandler,
        for scheme: String,
        host: String? = nil,
        pathPrefix: String = "/"
    ) throws(SchemeRegistryError) {
        let name = try SchemeName(validating: scheme)
        guard pathPrefix.hasPrefix("/") else { throw .invalidPathPrefix(pathPrefix) }
        let route = RouteTable.Route(host: host?.lowercased(), pathPrefix: pathPrefix, handler: handler)
        try table.withLock { (table: inout RouteTable) throws(SchemeRegistryError) in
            try table.add(route, scheme: name)
        }
    }

    /// Removes routes for `scheme`: all of them, or those for one host and/or path prefix.
    ///
    /// - Returns: Whether anything was removed. Tasks already running keep their handler.
    @discardableResult
    public func unregister(scheme: String, host: String? = nil, pathPrefix: String? = nil) -> Bool {
        guard let name = SchemeName(rawValue: scheme) else { return false }
        return table.withLock { $0.remove(scheme: name, host: host?.lowercased(), pathPrefix: pathPrefix) }
    }

    /// The schemes with at least one handler, sorted: what an engine adapter registers with its engine.
    public var schemes: [SchemeName] {
        table.withLock { $0.schemes }
    }

    /// The handler that would answer `request`, if any (before the method check).
    public func handler(for request: SchemeRequest) -> (any SchemeHandler)? {
        table.withLock { $0.handler(scheme: request.scheme, host: request.host, path: request.path) }
    }

    /// Wraps an engine request in a guarded task. Nothing runs until ``SchemeTask/run()`` or
    /// ``SchemeTask/start()``.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - sink: The engine side that receives the response.
    public func task(for request: SchemeRequest, sink: some SchemeTaskSink) -> SchemeTask {
        let route = table.withLock { $0.route(scheme: request.scheme, host: request.host, path: request.path) }
        let storage: GuardedTask
        if let route, route.allows(request.method) {
            storage = GuardedTask(
                request: request, sink: sink, handler: route.handler, handlerName: route.name, counters: counters)
        } else if let route {
            let filter = MethodNotAllowedHandler(allowed: route.methods)
            storage = GuardedTask(
                request: request, sink: sink, handler: filter, handlerName: filter.name, counters: counters)
        } else {
            storage = GuardedTask(request: request, sink: sink, handler: nil, handlerName: "", counters: counters)
        }
        return SchemeTask(storage: storage)
    }

    /// Runs `request` to completion against `sink` in the calling task.
    ///
    /// Equivalent to `task(for:sink:)` followed by ``SchemeTask/run()``; use ``task(for:sink:)``
    /// when the engine needs the handle to stop the task.
    public func handle(_ request: SchemeRequest, sink: some SchemeTaskSink) async {
        await task(for: request, sink: sink).run()
    }

    /// The counters of every task this registry created.
    public var metrics: SchemeTaskMetrics { counters.snapshot }
}
