public import HTTPTypes

/// Wraps a handler and sets or removes its response headers by path, as a ``HeaderPolicy`` says.
///
/// The policy's rules for the request's path are chosen once per request; the wrapped handler's
/// head is rewritten on its way to the engine and every other call (body, finish, failure, the
/// engine's body memory) is forwarded untouched. When a rule changes `Content-Type`, the head's
/// ``SchemeResponse/mimeType`` and ``SchemeResponse/textEncodingName`` follow it. A request no
/// rule matches costs one pattern match per rule and no wrapping.
///
/// Created with ``SchemeHandler/headerPolicy(_:)``:
///
/// ```swift
/// let files = LocalFileHandler(root: root).headerPolicy(.crossOriginIsolation())
/// ```
public struct HeaderPolicyHandler<Wrapped: SchemeHandler>: SchemeHandler {
    /// The handler whose responses get the headers.
    public let wrapped: Wrapped
    /// The rules.
    public let policy: HeaderPolicy

    /// Applies `policy` to `wrapped`'s responses.
    public init(_ wrapped: Wrapped, policy: HeaderPolicy) {
        self.wrapped = wrapped
        self.policy = policy
    }

    /// The wrapped handler's methods.
    public var supportedMethods: Set<HTTPRequest.Method> { wrapped.supportedMethods }

    /// The wrapped handler's name.
    public var name: String { wrapped.name }

    /// Calls the wrapped handler with a writer that applies the rules for the request's path.
    public func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
    {
        let rules = policy.rules(for: request.path)
        guard !rules.isEmpty else { return try await wrapped.handle(request, writer: writer) }
        return try await wrapped.handle(request, writer: HeaderPolicyWriter(base: writer, rules: rules))
    }
}

/// The writer behind ``HeaderPolicyHandler``: rewrites the head, forwards the rest.
struct HeaderPolicyWriter<Base: SchemeResponseWriter>: SchemeForwardingWriter {
    let base: Base
    let rules: [HeaderRule]

    func writeHead(_ response: SchemeResponse) async throws {
        var response = response
        if HeaderPolicy.apply(rules, to: &response.headerFields) {
            let contentType = response.headerFields[.contentType]
            response.mimeType = contentType.map(SchemeResponse.essence(ofContentType:))
            response.textEncodingName = contentType.flatMap(SchemeResponse.charset(ofContentType:))
        }
        try await base.writeHead(response)
    }
}
