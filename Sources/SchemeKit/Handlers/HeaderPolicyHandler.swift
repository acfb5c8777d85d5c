public import HTTPTypes

/// Wraps a handler and sets or removes its response headers by path, as a ``HeaderPolicy`` says.
///
/// The policy's rules for the request's path are chosen once per request, on the path the file
/// handler serves (``SchemeRequest``'s normalised path: `//x` and `/%78` are `/x`, so no spelling
/// of a path escapes its rules); the wrapped handler's
/// head is rewritten on its way to the engine and every other call (body, finish, failure, the
/// engine's body memory) is forwarded untouched. When a rule changes `Content-Type`, the head's
/// ``SchemeResponse/mimeType`` and ``SchemeResponse/textEncodingName`` follow it. A request no
/// rule matches costs one pattern match per rule and no wrapping. It answers at once
/// (``SchemeImmediateHandler``) when the wrapped handler does, with the same rules applied, and it
/// passes the engine's file regions through (only the head is rewritten).
///
/// Created with ``SchemeHandler/headerPolicy(_:)``:
///
/// ```swift
/// let files = LocalFileHandler(root: root).headerPolicy(.crossOriginIsolation())
/// ```
public struct HeaderPolicyHandler<Wrapped: SchemeHandler>: SchemeImmediateHandler {
    /// The handler whose responses get the headers.
    public let wrapped: Wrapped
    /// The rules.
    public let policy: HeaderPolicy
    /// The wrapped handler as an immediate handler, cast once here.
    private let immediate: (any SchemeImmediateHandler)?

    /// Applies `policy` to `wrapped`'s responses.
    public init(_ wrapped: Wrapped, policy: HeaderPolicy) {
        self.wrapped = wrapped
        self.policy = policy
        self.immediate = wrapped as? any SchemeImmediateHandler
    }

    /// The wrapped handler's methods.
    public var supportedMethods: Set<HTTPRequest.Method> { wrapped.supportedMethods }

    /// The wrapped handler's name.
    public var name: String { wrapped.name }

    /// Calls the wrapped handler with a writer that applies the rules for the request's path.
    public func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
    {
        let rules = policy.rules(for: request.normalizedPath)
        guard !rules.isEmpty else { return try await wrapped.handle(request, writer: writer) }
        return try await wrapped.handle(request, writer: HeaderPolicyWriter(base: writer, rules: rules))
    }

    /// The wrapped handler's immediate answer with the rules applied; deferred when the wrapped
    /// handler is no ``SchemeImmediateHandler``.
    public func immediateAnswer(to request: SchemeRequest) -> SchemeImmediateAnswer {
        guard let immediate else { return .deferred }
        let answer = immediate.immediateAnswer(to: request)
        guard case .response(var response) = answer else { return answer }
        let rules = policy.rules(for: request.normalizedPath)
        if !rules.isEmpty {
            response.head = HeaderPolicy.rewrite(response.head, rules)
            // The rules depend on the path, not only on the representation the id names.
            response.representationID = nil
        }
        return .response(response)
    }
}

/// The writer behind ``HeaderPolicyHandler``: rewrites the head, forwards the rest.
struct HeaderPolicyWriter<Base: SchemeResponseWriter>: SchemeForwardingWriter {
    let base: Base
    let rules: [HeaderRule]

    func writeHead(_ response: SchemeResponse) async throws {
        try await base.writeHead(HeaderPolicy.rewrite(response, rules))
    }

    /// Only the head changes: the engine's file regions go through as they are.
    var acceptsFileRegions: Bool { base.acceptsFileRegions }
}

extension HeaderPolicy {
    /// `response` with `rules` applied (the MIME type follows a rewritten `Content-Type`).
    static func rewrite(_ response: SchemeResponse, _ rules: [HeaderRule]) -> SchemeResponse {
        var response = response
        if HeaderPolicy.apply(rules, to: &response.headerFields) {
            let contentType = response.headerFields[.contentType]
            response.mimeType = contentType.map(SchemeResponse.essence(ofContentType:))
            response.textEncodingName = contentType.flatMap(SchemeResponse.charset(ofContentType:))
        }
        return response
    }
}
