import SchemeKit
import Testing

#if AsyncHTTPClient
    import SchemeKitAsyncHTTPClient
#endif

/// The HTTP clients every network test runs against: the network fallback must behave the same
/// on each (rewrite, host → IP, forwarding, streaming, timeouts, cancel on stop).
enum NetworkTestClient: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// ``URLSessionHTTPClient``, the core's default.
    case urlSession
    #if AsyncHTTPClient
        /// `AsyncHTTPSchemeClient` (trait `AsyncHTTPClient`), what `schemeserve --fallback` uses.
        case asyncHTTPClient
    #endif

    /// A new client of this kind.
    func make() -> any SchemeHTTPClient {
        switch self {
        case .urlSession: URLSessionHTTPClient()
        #if AsyncHTTPClient
            case .asyncHTTPClient: AsyncHTTPSchemeClient()
        #endif
        }
    }

    var testDescription: String { rawValue }
}
