import Foundation
import HTTPTypes

/// Answers 405 Method Not Allowed with an `Allow` header (RFC 9110 §15.5.6).
///
/// The registry uses it when the chosen handler does not list the request's method in
/// ``SchemeHandler/supportedMethods``.
struct MethodNotAllowedHandler: SchemeHandler {
    let allowed: Set<HTTPRequest.Method>

    var name: String { "method-filter" }

    var supportedMethods: Set<HTTPRequest.Method> {
        [.get, .head, .post, .put, .delete, .patch, .options, .trace, .connect]
    }

    func answer(to request: SchemeRequest) -> SchemeAnswer {
        .response(response(to: request))
    }

    /// The 405 with its `Allow` header; no body for HEAD.
    private func response(to request: SchemeRequest) -> SchemeCollectedResponse {
        let (head, body) = SchemeResponse.plainText(.methodNotAllowed, "Method Not Allowed\n")
        var response = head
        response.headerFields[.allow] = allowed.map(\.rawValue).sorted().joined(separator: ", ")
        return SchemeCollectedResponse(head: response, body: request.method == .head ? Data() : body)
    }
}
