public import HTTPTypes

/// A fallback chain: asks each handler in turn; the first one that answers wins.
///
/// A handler that returns ``SchemeHandlerOutcome/passed`` must not have written anything; the
/// chain then tries the next one. When every handler passes, the chain passes too (the registry
/// then answers 404).
///
/// ```swift
/// let chain = SchemeHandlerChain(localFiles, imageCache, network)
/// ```
///
/// The chain supports the union of its handlers' methods and calls only the handlers that
/// support the request's method. It answers at once (``SchemeImmediateHandler``) when the
/// handlers it asks do: the first immediate response wins, immediate passes go on to the next
/// handler, and the first handler that cannot answer at once defers the whole request to
/// ``handle(_:writer:)``.
public struct SchemeHandlerChain: SchemeImmediateHandler {
    /// The handlers, in the order they are asked.
    public let handlers: [any SchemeHandler]
    /// The union of the handlers' methods.
    public let supportedMethods: Set<HTTPRequest.Method>
    /// Each handler's name and methods, read once here rather than per request.
    private let entries: [Entry]

    private struct Entry: Sendable {
        let handler: any SchemeHandler
        let name: String
        let methods: Set<HTTPRequest.Method>
        /// The handler as an immediate handler, found once here rather than cast per request.
        let immediate: (any SchemeImmediateHandler)?
    }

    /// Creates a chain from an array of handlers. Their names and methods are read once, here.
    public init(_ handlers: [any SchemeHandler]) {
        self.handlers = handlers
        self.entries = handlers.map {
            Entry(
                handler: $0, name: $0.name, methods: $0.supportedMethods, immediate: $0 as? any SchemeImmediateHandler)
        }
        self.supportedMethods = entries.reduce(into: []) { $0.formUnion($1.methods) }
    }

    /// Creates a chain from handlers.
    public init(_ handlers: any SchemeHandler...) {
        self.init(handlers)
    }

    /// "chain".
    public var name: String { "chain" }

    /// Asks each handler that supports the method until one answers.
    public func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
    {
        for entry in entries where entry.methods.contains(request.method) {
            try Task.checkCancellation()
            let outcome = try await SchemeHandlerTrace.$name.withValue(entry.name) {
                try await entry.handler.handle(request, writer: writer)
            }
            if outcome == .handled { return .handled }
        }
        return .passed
    }

    /// Asks each handler that supports the method for an immediate answer, in order: a response
    /// wins, a pass goes on, and a handler that cannot answer at once (or is no
    /// ``SchemeImmediateHandler``) defers the request.
    public func immediateAnswer(to request: SchemeRequest) -> SchemeImmediateAnswer {
        for entry in entries where entry.methods.contains(request.method) {
            guard let immediate = entry.immediate else { return .deferred }
            switch immediate.immediateAnswer(to: request) {
            case .passed: continue
            case .deferred: return .deferred
            case .response(var response):
                if response.answeredBy == nil { response.answeredBy = entry.name }
                return .response(response)
            }
        }
        return .passed
    }
}
