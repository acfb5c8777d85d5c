import HTTPTypes

/// Wraps a handler and sets or removes its response headers by path, as a ``HeaderPolicy`` says.
///
/// The policy's rules for the request's path are chosen once per request, on the path the file
/// handler serves (``SchemeRequest``'s normalised path: `//x` and `/%78` are `/x`, so no spelling
/// of a path escapes its rules); the wrapped handler's
/// head is rewritten on its way to the engine and every other call (body, finish, failure, the
/// engine's body memory) is forwarded untouched. When a rule changes `Content-Type`, the head's
/// ``SchemeResponse/mimeType`` and ``SchemeResponse/textEncodingName`` follow it. A request no
/// rule matches costs one pattern match per rule and no wrapping. Its answer is known at once when
/// the wrapped handler's is, with the same rules applied, and it passes the engine's file regions
/// through (only the head is rewritten).
///
/// Created with ``SchemeHandler/headerPolicy(_:)``:
///
/// ```swift
/// let files = LocalFileHandler(root: root).headerPolicy(.crossOriginIsolation())
/// ```
public struct HeaderPolicyHandler<Wrapped: SchemeHandler>: SchemeForwardingHandler {
    /// The handler whose responses get the headers.
    public let wrapped: Wrapped
    /// The rules.
    package let policy: HeaderPolicy

    /// Applies `policy` to `wrapped`'s responses.
    public init(_ wrapped: Wrapped, policy: HeaderPolicy) {
        self.wrapped = wrapped
        self.policy = policy
    }

    /// The wrapped handler's answer with the rules for the request's path applied: to the head of
    /// a response known at once, or through a writer that rewrites the head of a writing answer.
    public func answer(to request: SchemeRequest) -> SchemeAnswer {
        let answer = wrapped.answer(to: request)
        let rules = policy.rules(for: request.normalizedPath)
        guard !rules.isEmpty else { return answer }
        switch answer {
        case .passed:
            return .passed
        case .response(var response):
            response.head = HeaderPolicy.rewrite(response.head, rules)
            // The rules depend on the path, not only on the representation the id names.
            response.representationID = nil
            response.validator = nil
            return .response(response)
        case .writing(let write):
            return .writing { writer in try await write(Self.rewriting(writer, rules)) }
        }
    }
}

extension HeaderPolicyHandler {
    /// `writer` with `rules` applied to the head it writes.
    fileprivate static func rewriting(_ writer: some SchemeResponseWriter, _ rules: [HeaderRule])
        -> any SchemeResponseWriter
    {
        HeaderPolicyWriter(base: writer, rules: rules)
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
