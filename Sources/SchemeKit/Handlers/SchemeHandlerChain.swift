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
/// support the request's method.
public struct SchemeHandlerChain: SchemeHandler {
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
    }

    /// Creates a chain from an array of handlers. Their names and methods are read once, here.
    public init(_ handlers: [any SchemeHandler]) {
        self.handlers = handlers
        self.entries = handlers.map { Entry(handler: $0, name: $0.name, methods: $0.supportedMethods) }
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
}
