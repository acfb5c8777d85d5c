package import Foundation

/// A `Location` read against an origin: the one rule every layer uses to keep a redirect on the
/// origin the page is on, as a reverse proxy does (nginx's `proxy_redirect default`).
///
/// A redirect an upstream makes to itself (`https://api.example/login`, built from the `Host` it
/// got) would take the page off its scheme; the network handler and the preloader move it to the
/// page's origin (`app://localhost/login`), the browser adapters to the virtual origin the browser
/// asked on (`https://app.localhost/login`), `schemeserve` to a path on itself (`/login`), the HAR
/// recorder and replay to the origin they record on. A relative `Location` is left alone: the
/// engine resolves it against the page's URL already.
package enum RedirectLocation {
    /// The path, query and fragment of `location` (`/login?x#y`; `/` for an empty path) when it is
    /// an absolute or scheme-relative URL on `origin`'s scheme, host and port (letter case and
    /// default ports aside, no user info); `nil` for a relative location or another origin.
    package static func path(of location: String, on origin: URL) -> String? {
        guard let target = URLComponents(string: location), let host = target.encodedHost, !host.isEmpty,
            target.user == nil, target.password == nil,
            let origin = URLComponents(url: origin, resolvingAgainstBaseURL: false)
        else { return nil }
        let scheme = (target.scheme ?? origin.scheme)?.lowercased()
        let defaultPort = scheme.flatMap(NetworkRewriter.defaultPort)
        guard scheme == origin.scheme?.lowercased(), host.lowercased() == origin.encodedHost?.lowercased(),
            (target.port ?? defaultPort) == (origin.port ?? defaultPort)
        else { return nil }
        var path = target.percentEncodedPath.isEmpty ? "/" : target.percentEncodedPath
        if let query = target.percentEncodedQuery { path += "?" + query }
        if let fragment = target.percentEncodedFragment { path += "#" + fragment }
        return path
    }

    /// `location` moved from `origin` to the origin of `page` (`https://api.example/login` from
    /// `https://api.example` to `app://localhost/start` is `app://localhost/login`); `nil` when
    /// ``path(of:on:)`` is.
    package static func moved(_ location: String, from origin: URL, to page: URL) -> String? {
        guard let path = path(of: location, on: origin),
            var components = URLComponents(url: page, resolvingAgainstBaseURL: false)
        else { return nil }
        components.percentEncodedPath = ""
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        components.user = nil
        components.password = nil
        guard let pageOrigin = components.string else { return nil }
        return pageOrigin + path
    }
}
