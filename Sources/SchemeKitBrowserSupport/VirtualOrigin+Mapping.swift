#if Chromium || Firefox || WebKitGTK
    package import SchemeKit

    extension VirtualOrigin {
        /// The registry URL for a URL of this origin, or `nil` when the URL is not on it
        /// (``VirtualOriginMapping``, the one rule both browser adapters use).
        package func registryURL(for url: String) -> String? {
            VirtualOriginMapping.registryURL(for: url, host: host, scheme: scheme, registryHost: registryHost)
        }
    }

    extension Sequence<VirtualOrigin> {
        /// The registry URL for `url` on the first origin that owns it, or `nil` when none does (a
        /// request the browser matched more widely than the adapter serves: it is let go).
        package func registryURL(for url: String) -> String? {
            lazy.compactMap { $0.registryURL(for: url) }.first
        }
    }
#endif
