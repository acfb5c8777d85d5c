import SchemeKit
import Testing

/// The HTTP clients every network test runs against: the network fallback must behave the same
/// on each (rewrite, host → IP, forwarding, streaming, timeouts, cancel on stop).
enum NetworkTestClient: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// ``URLSessionHTTPClient``, the core's default.
    case urlSession

    /// A new client of this kind.
    func make() -> any SchemeHTTPClient {
        switch self {
        case .urlSession: URLSessionHTTPClient()
        }
    }

    var testDescription: String { rawValue }
}
