import Foundation
import HTTPTypes

/// Decides whether a request whose host comes from the page may go to the network, before
/// anything is sent: the one place ``NetworkAllowedHosts`` is enforced, for ``NetworkFallbackHandler``
/// and ``Preloader`` alike.
///
/// A target whose destination the app named (``NetworkRewriter/Target/hostFromRequest`` is
/// `false`) passes as it is. Otherwise the host must be allowed by name or, for an IP literal,
/// listed; a name is then resolved, and every address must be public or listed. Over `http` the
/// request is pinned to the first address checked (the name goes in `Host`), so that the client
/// does not look the name up a second time.
///
/// A name's addresses are kept for ``resolutionLifetime`` (30 s), at most ``resolutionLimit``
/// names (1024), so that a page's requests do not each wait for a DNS query; a kept answer is
/// checked again on every request, and over `http` it is the address connected to.
package final class NetworkHostGate: Sendable {
    /// The hosts allowed.
    package let allowedHosts: NetworkAllowedHosts
    /// How names are looked up.
    package let resolver: NetworkResolver
    /// How long a name's addresses are kept.
    static let resolutionLifetime = Duration.seconds(30)
    /// The most names kept; past it, the kept answers are dropped.
    static let resolutionLimit = 1024
    private let resolutions = Locked<[String: (addresses: [NetworkAddress], until: ContinuousClock.Instant)]>([:])

    /// What to do with a request.
    package enum Decision: Sendable {
        /// Send this request (the one given, or the same pinned to a checked address).
        case admitted(SchemeHTTPClientRequest)
        /// Answer 403 with this reason; send nothing.
        case refused(NetworkFallbackError)
        /// The name could not be resolved: a gateway failure (502), as if the client had failed.
        case unresolved(any Error)
    }

    /// Creates a gate.
    package init(allowedHosts: NetworkAllowedHosts, resolver: NetworkResolver) {
        self.allowedHosts = allowedHosts
        self.resolver = resolver
    }

    /// Decides for `request`, made for `target`.
    package func admit(_ request: SchemeHTTPClientRequest, to target: NetworkRewriter.Target) async -> Decision {
        guard target.hostFromRequest else { return .admitted(request) }
        guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
            let host = components.percentEncodedHost, !host.isEmpty
        else { return .refused(.hostNotAllowed("")) }
        guard allowedHosts.allows(host: host) else { return .refused(.hostNotAllowed(host)) }
        // A listed IP literal is reached as listed: there is nothing to look up.
        if NetworkAddress(literal: host) != nil { return .admitted(request) }
        let addresses: [NetworkAddress]
        do {
            addresses = try await resolve(host)
        } catch {
            return .unresolved(error)
        }
        guard let first = addresses.first,
            addresses.allSatisfy({ $0.isPublic || allowedHosts.lists($0) })
        else { return .refused(.privateAddress(host: host)) }
        guard components.scheme?.lowercased() == "http" else { return .admitted(request) }
        var pinned = components
        pinned.percentEncodedHost = first.urlHost
        guard let url = pinned.url else { return .refused(.hostNotAllowed(host)) }
        var request = request
        request.url = url
        request.headerFields[HTTPField.Name("Host")!] = components.port.map { "\(host):\($0)" } ?? host
        return .admitted(request)
    }

    /// `host`'s addresses: kept ones while they last, else looked up (and kept).
    private func resolve(_ host: String) async throws -> [NetworkAddress] {
        let now = ContinuousClock.now
        if let kept = resolutions.withLock({ $0[host] }), kept.until > now { return kept.addresses }
        let addresses = try await resolver.resolve(host)
        resolutions.withLock { kept in
            if kept.count >= Self.resolutionLimit { kept.removeAll() }
            kept[host] = (addresses, now + Self.resolutionLifetime)
        }
        return addresses
    }
}
