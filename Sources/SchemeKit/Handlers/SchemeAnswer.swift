import Foundation
public import HTTPTypes

/// How a handler answers a request (``SchemeHandler/answer(to:)``): the one description of its
/// answer, which the engine writes inline or from a task.
public enum SchemeAnswer: Sendable {
    /// The whole response, known now: head and body bytes. The engine writes it in place, with no
    /// task. (A body to read — a file region included — is a writing answer: it writes the region
    /// when the engine takes regions, else reads.)
    case response(SchemeCollectedResponse)
    /// Not this handler's request; nothing was written.
    case passed
    /// The response is written over time through a writer, in a Swift task the engine makes (a
    /// stop cancels it). Returns ``SchemeHandlerOutcome/passed`` when it wrote nothing and the
    /// next handler should answer.
    case writing(@Sendable (any SchemeResponseWriter) async throws -> SchemeHandlerOutcome)

    /// Writes this answer through `writer`: a response as head, body and finish; a writing
    /// answer by running it.
    ///
    /// - Parameters:
    ///   - request: The request answered.
    ///   - writer: Where the answer goes.
    /// - Returns: Whether the request was handled or passed.
    public func perform(request: SchemeRequest, with writer: some SchemeResponseWriter) async throws
        -> SchemeHandlerOutcome
    {
        switch self {
        case .passed:
            return .passed
        case .writing(let write):
            return try await write(writer)
        case .response(let response):
            try await writer.writeHead(response.head)
            if !response.body.isEmpty { try await writer.write(SchemeBody(response.body)) }
            try await writer.finish()
            return .handled
        }
    }
}

extension SchemeCollectedResponse {
    /// A short plain-text response (`text/plain; charset=utf-8`, `Content-Length`), with no body
    /// for HEAD: what handlers answer refusals and small messages with.
    ///
    /// - Parameters:
    ///   - status: The status.
    ///   - message: The body text.
    ///   - request: The request answered.
    public static func text(_ status: HTTPResponse.Status, _ message: String, for request: SchemeRequest)
        -> SchemeCollectedResponse
    {
        let (head, body) = SchemeResponse.plainText(status, message)
        return SchemeCollectedResponse(head: head, body: request.method == .head ? Data() : body)
    }
}
