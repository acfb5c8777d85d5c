public import Foundation
public import SchemeKit

/// A handler that answers only requests a ``RequestMatcher`` matches and passes the others,
/// so a `SchemeHandlerChain` falls through to its next handler.
///
/// ```swift
/// let chain = SchemeHandlerChain(
///     StubHandler(matching: .pathExtension("png"), mimeType: "image/png", body: pngBytes),
///     StubHandler(matching: .pathPrefix("/api"), StaticHandler("{}", mimeType: "application/json")),
///     files)
/// ```
///
/// The trace name (`SchemeHandler/name`) is the wrapped handler's, so
/// `SchemeTask/respondingHandler` names the handler that really answered.
public struct StubHandler<Wrapped: SchemeHandler>: SchemeForwardingHandler {
    /// Which requests this stub answers.
    package let matcher: RequestMatcher
    /// The handler that answers matching requests.
    public let wrapped: Wrapped

    /// Answers requests `matcher` matches with `wrapped`; passes the others.
    package init(matching matcher: RequestMatcher, _ wrapped: Wrapped) {
        self.matcher = matcher
        self.wrapped = wrapped
    }

    /// The wrapped handler's answer when the request matches; passes otherwise.
    public func answer(to request: SchemeRequest) -> SchemeAnswer {
        matcher.matches(request) ? wrapped.answer(to: request) : .passed
    }
}

extension StubHandler where Wrapped == StaticHandler {
    /// Answers requests `matcher` matches with fixed bytes; passes the others.
    ///
    /// - Parameters:
    ///   - matcher: Which requests to answer.
    ///   - status: The status. Default: 200 OK.
    ///   - mimeType: The MIME type. Default: `application/octet-stream`.
    ///   - headerFields: Extra header fields. Default: none.
    ///   - body: The body. Default: empty.
    ///   - name: The name used in traces. Default: `"stub"`.
    public init(
        matching matcher: RequestMatcher,
        status: HTTPResponse.Status = .ok,
        mimeType: String = "application/octet-stream",
        headerFields: HTTPFields = [:],
        body: Data = Data(),
        name: String = "stub"
    ) {
        self.init(
            matching: matcher,
            StaticHandler(body, status: status, mimeType: mimeType, headerFields: headerFields, name: name)
        )
    }
}
