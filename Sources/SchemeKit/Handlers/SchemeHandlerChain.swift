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
/// The chain supports the union of its handlers' methods and asks only the handlers that
/// support the request's method. Its answer (``answer(to:)``) is known at once as far as its
/// handlers' are: the first response wins, a pass goes on to the next handler, and the first
/// handler that writes over time makes the whole answer a writing one, which asks the remaining
/// handlers in turn if that one passes.
public struct SchemeHandlerChain: SchemeHandler {
    /// The handlers, in the order they are asked.
    package let handlers: [any SchemeHandler]
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

    /// Asks each handler that supports the method, in order: a response wins (named after its
    /// handler), a pass goes on, a writing answer is run — and, if it passes, the handlers after it.
    public func answer(to request: SchemeRequest) -> SchemeAnswer {
        for (index, entry) in entries.enumerated() where entry.methods.contains(request.method) {
            switch entry.handler.answer(to: request) {
            case .passed:
                continue
            case .response(var response):
                if response.answeredBy == nil { response.answeredBy = entry.name }
                return .response(response)
            case .writing(let write):
                let rest = entries[(index + 1)...]
                return .writing { writer in
                    let outcome = try await SchemeHandlerTrace.$name.withValue(entry.name) { try await write(writer) }
                    if outcome == .handled { return .handled }
                    for next in rest where next.methods.contains(request.method) {
                        try Task.checkCancellation()
                        let outcome = try await SchemeHandlerTrace.$name.withValue(next.name) {
                            try await next.handler.answer(to: request).perform(request: request, with: writer)
                        }
                        if outcome == .handled { return .handled }
                    }
                    return .passed
                }
            }
        }
        return .passed
    }
}
