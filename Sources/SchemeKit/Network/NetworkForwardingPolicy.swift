public import HTTPTypes

/// Which header fields cross the network fallback: what the page's request sends to the origin,
/// and what the origin's response gives back to the page.
///
/// The defaults keep a page's credentials and its client's identity away from the origin, and the
/// origin's cookies and CORS grants away from the page. A web view serves many origins' pages
/// through one scheme, and a dev server on `localhost` receives every localhost cookie of the
/// browser (cookies are shared across ports), so nothing is forwarded that the app did not name:
///
/// ```swift
/// var forwarding = NetworkForwardingPolicy()
/// forwarding.forwardedRequestFields = [.authorization]  // the API behind the fallback needs it
/// forwarding.passedResponseFields = [.setCookie]        // and its session cookie reaches the page
/// let network = NetworkFallbackHandler(origin: URL(string: "http://127.0.0.1:8081")!, forwarding: forwarding)
/// ```
///
/// ## To the origin
/// - **Withheld unless named** in ``forwardedRequestFields``: `Cookie`, `Authorization` (the
///   page's credentials), `Forwarded`, every `X-Forwarded-*` field and `X-Real-IP` (who the client
///   is, which an origin may trust).
/// - **Never sent, even when named**: hop-by-hop fields (RFC 9110 §7.6.1: `Connection` and the
///   fields it lists, `Keep-Alive`, `Proxy-*` — `Proxy-Authorization` included —, `TE`,
///   `Trailer`, `Transfer-Encoding`, `Upgrade`), and the fields the HTTP client sets itself:
///   `Host` (from the target, or the original host for an IP rewrite), `Content-Length` and
///   `Accept-Encoding`.
/// - Every other field is sent as the page sent it.
///
/// ## To the page
/// - **Withheld unless named** in ``passedResponseFields``: `Set-Cookie` (the origin's cookies
///   would be set for the app's scheme and host) and every `Access-Control-*` field (the origin's
///   CORS grants, such as `Access-Control-Allow-Origin: *`, are not the app's to give).
/// - **Never passed, even when named**: hop-by-hop fields.
/// - Every other field, and the status, pass as the origin sent them.
///
/// Names compare case-insensitively. Naming a field that is not withheld changes nothing.
public struct NetworkForwardingPolicy: Sendable, Hashable {
    /// Request fields sent to the origin although they are withheld by default (`Cookie`,
    /// `Authorization`, `Forwarded`, `X-Forwarded-*`, `X-Real-IP`). Hop-by-hop fields and those
    /// the client sets are never sent, named or not. Default: none.
    public var forwardedRequestFields: Set<HTTPField.Name>
    /// Response fields passed to the page although they are withheld by default (`Set-Cookie`,
    /// `Access-Control-*`). Hop-by-hop fields are never passed, named or not. Default: none.
    public var passedResponseFields: Set<HTTPField.Name>

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - forwardedRequestFields: Withheld request fields to send anyway. Default: none.
    ///   - passedResponseFields: Withheld response fields to pass anyway. Default: none.
    public init(forwardedRequestFields: Set<HTTPField.Name> = [], passedResponseFields: Set<HTTPField.Name> = []) {
        self.forwardedRequestFields = forwardedRequestFields
        self.passedResponseFields = passedResponseFields
    }

    /// Whether a request field (lowercased name) is withheld unless named: credentials and
    /// client identity.
    static func withholdsByDefault(requestField name: String) -> Bool {
        name == "cookie" || name == "authorization" || name == "forwarded" || name == "x-real-ip"
            || name.hasPrefix("x-forwarded-")
    }

    /// Why a request field is never sent, named or not (a hop-by-hop field, or one the HTTP client
    /// sets itself), or `nil` when naming it in ``forwardedRequestFields`` sends it.
    package static func neverForwardedReason(requestField name: HTTPField.Name) -> String? {
        if HopByHopHeaders.isHopByHop(name.canonicalName) {
            return "a hop-by-hop field describes one connection and is never forwarded"
        }
        if HopByHopHeaders.requestFieldsSetByClient.contains(name.canonicalName) {
            return "the HTTP client sets \(name.rawName) itself"
        }
        return nil
    }

    /// Whether a response field (lowercased name) is withheld unless named: cookies and CORS.
    static func withholdsByDefault(responseField name: String) -> Bool {
        name == "set-cookie" || name.hasPrefix("access-control-")
    }

    /// The fields of a page's request that go to the origin.
    func requestFields(_ fields: HTTPFields) -> HTTPFields {
        let named = Set(forwardedRequestFields.map(\.canonicalName))
        return HopByHopHeaders.forwardable(fields) { name in
            HopByHopHeaders.requestFieldsSetByClient.contains(name)
                || (Self.withholdsByDefault(requestField: name) && !named.contains(name))
        }
    }

    /// The fields of the origin's response that go to the page.
    func responseFields(_ fields: HTTPFields) -> HTTPFields {
        let named = Set(passedResponseFields.map(\.canonicalName))
        return HopByHopHeaders.forwardable(fields) { name in
            Self.withholdsByDefault(responseField: name) && !named.contains(name)
        }
    }
}
