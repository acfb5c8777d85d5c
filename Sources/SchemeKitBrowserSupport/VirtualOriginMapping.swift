#if Chromium || Firefox || WebKitGTK
    import Foundation
    package import SchemeKit

    /// The one rule both browser adapters use to map a virtual https origin onto a registry scheme:
    /// `https://<host>/x?y` → `<scheme>://<registryHost>/x?y`.
    package enum VirtualOriginMapping {
        /// The registry URL for `url`, without a fragment (Firefox's BiDi keeps the page's, a
        /// request never has one), or `nil` when `url` is not on `https://<host>`.
        ///
        /// - Parameters:
        ///   - url: What the browser asked for.
        ///   - host: The virtual origin's host, lowercased.
        ///   - scheme: The registry scheme.
        ///   - registryHost: The registry URLs' host.
        package static func registryURL(for url: String, host: String, scheme: String, registryHost: String) -> String?
        {
            let url = SchemeRequest.droppingFragment(url)
            let prefix = "https://\(host)"
            guard url.count >= prefix.count,
                url.prefix(prefix.count).lowercased() == prefix
            else { return nil }
            let rest = url.dropFirst(prefix.count)
            if rest.isEmpty { return "\(scheme)://\(registryHost)/" }
            guard let first = rest.first, first == "/" || first == "?" else { return nil }
            return "\(scheme)://\(registryHost)\(first == "?" ? "/" : "")\(rest)"
        }

        /// A response field's value as the browser must get it: a `Location` on the registry URL's
        /// origin (`app://localhost/login`, such as a handler's redirect, or the network handler's
        /// for an origin redirecting to itself) moved to the origin the browser asked on
        /// (`https://app.localhost/login`), so the page stays there (``RedirectLocation``); any
        /// other field or location as it is.
        ///
        /// - Parameters:
        ///   - field: A field of the registry's response.
        ///   - registryURL: The request's registry URL (`app://localhost/start`).
        ///   - browserURL: The URL the browser asked for (`https://app.localhost/start`).
        package static func browserValue(of field: HTTPField, registryURL: String, browserURL: String) -> String {
            guard field.name == .location, let registry = URL(string: registryURL),
                let browser = URL(string: browserURL)
            else { return field.value }
            return RedirectLocation.moved(field.value, from: registry, to: browser) ?? field.value
        }
    }
#endif
