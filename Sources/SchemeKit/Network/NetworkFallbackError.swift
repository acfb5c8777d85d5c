/// Why a ``NetworkFallbackHandler`` (or a ``Preloader``) refused to fetch a request: its host is
/// not one the app allowed (``NetworkAllowedHosts``).
///
/// Never thrown: a refusal is answered `403` with a body that says this description, and the
/// head carries the error as its ``SchemeResponse/refusalReason`` (schemeserve's access log and
/// request records read it there). The description names the host the page asked for, never an
/// address a name resolved to.
public struct NetworkFallbackError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Hashable {
        case hostNotAllowed(String)
        case privateAddress(String)
    }

    private let code: Code

    /// `host` matches none of the allowed hosts' patterns (an IP literal matches only itself,
    /// listed).
    public static func hostNotAllowed(_ host: String) -> NetworkFallbackError { .init(code: .hostNotAllowed(host)) }

    /// `host` is allowed, but resolves to an address that is not public (loopback, private,
    /// link-local…) and is not listed itself.
    public static func privateAddress(host: String) -> NetworkFallbackError { .init(code: .privateAddress(host)) }

    /// The host the request named.
    public var host: String {
        switch code {
        case .hostNotAllowed(let host), .privateAddress(let host): host
        }
    }

    /// A one-line explanation, as the 403's body says it.
    public var description: String {
        switch code {
        case .hostNotAllowed(let host):
            NetworkAddress(literal: host) == nil
                ? "host \(host) is not in the fallback's allowed hosts"
                : "host \(host) is not in the fallback's allowed hosts (an IP address must be listed itself)"
        case .privateAddress(let host):
            "host \(host) resolves to a private address (loopback, private network or link-local), which the fallback's allowed hosts do not list"
        }
    }
}
