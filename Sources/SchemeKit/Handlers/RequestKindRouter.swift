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
    public let routes: [RequestKind: any SchemeHandler]
    /// The handler for kinds not in ``routes``.
    public let fallback: (any SchemeHandler)?
    /// The union of every handler's methods.
    public let supportedMethods: Set<HTTPRequest.Method>

    /// Creates a router.
    ///
    /// - Parameters:
    ///   - routes: The handler for each kind.
    ///   - fallback: The handler for other kinds. Default: none (pass).
    public init(routes: [RequestKind: any SchemeHandler], fallback: (any SchemeHandler)? = nil) {
        self.routes = routes
        self.fallback = fallback
        var methods = fallback?.supportedMethods ?? []
        for handler in routes.values { methods.formUnion(handler.supportedMethods) }
        self.supportedMethods = methods
    }

    /// "kind-router".
    public var name: String { "kind-router" }

    /// Sends the request to the handler for its kind.
    public func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
        guard let handler = routes[RequestKind.of(request)] ?? fallback,
            handler.supportedMethods.contains(request.method)
        else { return .passed }
        return try await SchemeHandlerTrace.$name.withValue(handler.name) {
            try await handler.handle(request, writer: writer)
        }
    }
}
