public import HTTPTypes

/// Routes requests by ``RequestKind``: documents to one handler, images to another, and so on.
///
/// This is how the hybrid-app articles split traffic: HTML, JS and CSS from the offline package,
/// images from the native image cache, the rest from the network. Kinds with no handler go to
/// `fallback`; when that is `nil` the router passes.
///
/// ```swift
/// let router = RequestKindRouter(
///     routes: [.document: files, .scriptOrStyle: files, .image: imageCache],
///     fallback: network)
/// ```
public struct RequestKindRouter: SchemeHandler {
    /// The handler for each kind.
    package let routes: [RequestKind: any SchemeHandler]
    /// The handler for kinds not in `routes`.
    package let fallback: (any SchemeHandler)?
    /// The union of every handler's methods.
    public let supportedMethods: Set<HTTPRequest.Method>
    /// Each kind's handler with its name and methods, read once at init rather than per request.
    private let entries: [RequestKind: Entry]
    private let fallbackEntry: Entry?

    private struct Entry: Sendable {
        let handler: any SchemeHandler
        let name: String
        let methods: Set<HTTPRequest.Method>

        init(_ handler: any SchemeHandler) {
            self.handler = handler
            self.name = handler.name
            self.methods = handler.supportedMethods
        }
    }

    /// Creates a router.
    ///
    /// - Parameters:
    ///   - routes: The handler for each kind.
    ///   - fallback: The handler for other kinds. Default: none (pass).
    public init(routes: [RequestKind: any SchemeHandler], fallback: (any SchemeHandler)? = nil) {
        self.routes = routes
        self.fallback = fallback
        self.entries = routes.mapValues(Entry.init)
        self.fallbackEntry = fallback.map(Entry.init)
        var methods = fallbackEntry?.methods ?? []
        for entry in entries.values { methods.formUnion(entry.methods) }
        self.supportedMethods = methods
    }

    /// "kind-router".
    public var name: String { "kind-router" }

    /// The answer of the handler for the request's kind (known at once when that handler's is).
    public func answer(to request: SchemeRequest) -> SchemeAnswer {
        guard let entry = entries[RequestKind.of(request)] ?? fallbackEntry,
            entry.methods.contains(request.method)
        else { return .passed }
        switch entry.handler.answer(to: request) {
        case .passed:
            return .passed
        case .response(var response):
            if response.answeredBy == nil { response.answeredBy = entry.name }
            return .response(response)
        case .writing(let write):
            return .writing { writer in
                try await SchemeHandlerTrace.$name.withValue(entry.name) { try await write(writer) }
            }
        }
    }
}
