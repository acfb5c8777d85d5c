import Foundation
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
    private let table = Locked(RouteTable())
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
    package func handler(for request: SchemeRequest) -> (any SchemeHandler)? {
        table.withLock { $0.handler(scheme: request.scheme, host: request.host, path: request.path) }
    }

    /// Wraps an engine request in a guarded task: the one way to hand a request to an engine that
    /// may stop it. Nothing runs until ``SchemeTask/start(immediately:)``.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - sink: The engine side that receives the response.
    public func task(for request: SchemeRequest, sink: some SchemeTaskSink) -> SchemeTask {
        SchemeTask(storage: storage(for: request, sink: sink))
    }

    /// Wraps an engine request in a guarded task whose sink is made for it, so the sink can stop
    /// its own task (an engine callback saying "the view went away" reaches the sink first).
    ///
    /// ```swift
    /// let task = registry.task(for: request) { task in
    ///     EngineSink(onCancel: { task.stop() })
    /// }
    /// task.start()
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - makeSink: Makes the sink, given the task. It runs once, before this method returns;
    ///     it may keep the task but must not start it. The task lets go of the sink once the
    ///     handler has returned, so a sink that holds its task makes no lasting cycle.
    public func task(for request: SchemeRequest, makeSink: (SchemeTask) -> some SchemeTaskSink) -> SchemeTask {
        let storage = storage(for: request, sink: DetachedSink())
        let task = SchemeTask(storage: storage)
        storage.attach(makeSink(task))
        return task
    }

    private func storage(for request: SchemeRequest, sink: some SchemeTaskSink) -> GuardedTask {
        let route = table.withLock {
            $0.route(scheme: request.scheme, host: request.host, path: request.normalizedPath)
        }
        return GuardedTask(request: request, sink: sink, route: Self.answering(request, on: route), counters: counters)
    }

    /// Fetches `request` through the handler chain into memory: for native code that wants what
    /// the web view would get (a cached image for a native view, a JSON file from the package).
    ///
    /// Runs like any engine request (same routes, same 404/405, counted in ``metrics``); the
    /// handler runs in its own Swift task, so cancelling the caller stops it.
    ///
    /// ```swift
    /// let logo = try await registry.response(for: SchemeRequest(url: URL(string: "app://localhost/img/logo.png")!))
    /// if logo.head.status == .ok { imageView.image = UIImage(data: logo.body) }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - limit: The largest body accepted, in bytes. Default: 16 MiB.
    /// - Returns: The response head and the whole body. Error statuses (404, 416…) are returned,
    ///   not thrown.
    /// - Throws: ``SchemeCollectedResponse/Error/bodyTooLarge(limit:)`` when the body passes
    ///   `limit` (the task is stopped at that point); the handler's error when the task failed;
    ///   `CancellationError` when the calling task was cancelled.
    public func response(for request: SchemeRequest, limit: Int = 16 << 20) async throws -> SchemeCollectedResponse {
        let collector = SchemeResponseCollector(limit: limit)
        let task = task(for: request) { task in
            collector.task = task
            return collector
        }
        await task.run()
        var response = try collector.result()
        response.answeredBy = task.respondingHandler
        return response
    }

    /// The response to `request` when the handlers can give it at once, without suspending; `nil`
    /// when a task must run (``task(for:sink:)``).
    ///
    /// For engine adapters on an event loop: a small file whose body is cached, a 304, a 404 or a
    /// refusal is answered in place, with no Swift task and no thread hop. The answer is what a
    /// task would have delivered (same route, same 404 and 405, the same handler's
    /// ``SchemeHandler/answer(to:)``) and is counted in ``metrics`` as a started and finished task.
    /// An engine whose sink sets ``SchemeTaskSink/receivesPassed`` should not use it: a request
    /// every handler passes is answered 404 here.
    ///
    /// ```swift
    /// if let answer = registry.immediateResponse(for: request) {
    ///     send(answer.head, answer.body)          // on the event loop, now
    /// } else {
    ///     registry.task(for: request, sink: sink).start()
    /// }
    /// ```
    ///
    /// - Parameter request: The request.
    public func immediateResponse(for request: SchemeRequest) -> SchemeCollectedResponse? {
        let route = table.withLock {
            $0.route(scheme: request.scheme, host: request.host, path: request.normalizedPath)
        }
        let answering = Self.answering(request, on: route)
        var answer: SchemeCollectedResponse
        switch answering?.handler.answer(to: request) ?? .passed {
        case .writing:
            return nil
        case .response(let response):
            answer = response
            if answer.answeredBy == nil { answer.answeredBy = answering?.name }
        case .passed:
            answer = Self.notFound(request)
        }
        counters.countImmediateAnswer()
        return answer
    }

    /// Asks the handler once how it answers `request`: the ready response, or a task that runs the
    /// answer the handler gave — the one way an engine adapter on an event loop hands a request over.
    ///
    /// - ``SchemeRegistryAnswer/response(_:)``: the whole response is known now (a small file from
    ///   the body cache, a 304, a 404 or 405, a refusal): write it in place, with no Swift task. It
    ///   is counted in ``metrics`` as a started and finished task.
    /// - ``SchemeRegistryAnswer/task(_:)``: the response is written over time. The task runs the
    ///   handler's answer when started (``SchemeTask/start(immediately:)``); the handler is not
    ///   asked again.
    ///
    /// Same routes, 404 and 405 as ``task(for:sink:)``. A sink that takes passed requests
    /// (``SchemeTaskSink/receivesPassed``) gets a task for a request every handler passes, which
    /// delivers ``SchemeTaskSink/passed()``.
    ///
    /// ```swift
    /// switch registry.answer(for: request, sink: sink) {
    /// case .response(let response): send(response.head, response.body)   // now, on the loop
    /// case .task(let task): task.start()                                  // writes through `sink`
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - sink: The engine side that receives a response written over time.
    public func answer(for request: SchemeRequest, sink: some SchemeTaskSink) -> SchemeRegistryAnswer {
        let route = table.withLock {
            $0.route(scheme: request.scheme, host: request.host, path: request.normalizedPath)
        }
        let answering = Self.answering(request, on: route)
        let answer = answering?.handler.answer(to: request) ?? .passed
        switch answer {
        case .response(var response):
            if response.answeredBy == nil { response.answeredBy = answering?.name }
            counters.countImmediateAnswer()
            return .response(response)
        case .passed where !sink.receivesPassed:
            counters.countImmediateAnswer()
            return .response(Self.notFound(request))
        case .passed, .writing:
            return .task(
                SchemeTask(
                    storage: GuardedTask(
                        request: request, sink: sink, route: answering, counters: counters, answered: answer)))
        }
    }

    /// The route whose handler answers `request`: `route` itself, its 405 route for a method its
    /// handler does not take, or `nil` (404).
    static func answering(_ request: SchemeRequest, on route: RouteTable.Route?) -> RouteTable.Route? {
        guard let route, !route.allows(request.method) else { return route }
        return route.methodNotAllowed
    }

    /// The registry's 404 when no handler answers, as a task delivers it.
    private static func notFound(_ request: SchemeRequest) -> SchemeCollectedResponse {
        let (head, body) = SchemeResponse.plainText(.notFound, "Not Found\n")
        return SchemeCollectedResponse(
            head: head, body: request.method == .head ? Data() : body, answeredBy: "not-found")
    }

    /// Runs `request` to completion against `sink` in the calling task.
    ///
    /// The one way to run a request in the calling Swift task (a stop still never cancels it); use
    /// ``task(for:sink:)`` when the engine needs the handle to stop the task.
    public nonisolated(nonsending) func handle(_ request: SchemeRequest, sink: some SchemeTaskSink) async {
        await task(for: request, sink: sink).run()
    }

    /// The counters of every task this registry created.
    public var metrics: SchemeTaskMetrics { counters.snapshot }
}
