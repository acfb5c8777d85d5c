public import HTTPTypes

/// A handler made from a closure, for small routes and tests.
///
/// ```swift
/// let ping = ClosureHandler { request, writer in
///     try await writer.respond(.ok, body: Data("pong".utf8))
///     return .handled
/// }
/// ```
public struct ClosureHandler: SchemeHandler {
    let body: @Sendable (SchemeRequest, any SchemeResponseWriter) async throws -> SchemeHandlerOutcome

    /// The methods this handler intercepts.
    public let supportedMethods: Set<HTTPRequest.Method>
    /// The name used in traces.
    public let name: String

    /// Creates a handler.
    ///
    /// - Parameters:
    ///   - name: The name used in traces. Default: `"closure"`.
    ///   - methods: The methods it intercepts. Default: GET and HEAD.
    ///   - body: Answers or passes, like ``SchemeHandler/handle(_:writer:)``.
    public init(
        name: String = "closure",
        methods: Set<HTTPRequest.Method> = [.get, .head],
        _ body: @escaping @Sendable (SchemeRequest, any SchemeResponseWriter) async throws -> SchemeHandlerOutcome
    ) {
        self.name = name
        self.supportedMethods = methods
        self.body = body
    }

    /// Calls the closure.
    public func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
    {
        try await body(request, writer)
    }
}
