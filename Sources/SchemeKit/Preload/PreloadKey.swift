import Foundation
import HTTPTypes

/// The identity under which identical requests meet: the method and the normalised network URL.
///
/// The URL is the rewriter's logical URL: lowercased scheme and host, no default port, no fragment,
/// `/` for an empty path, the query kept as sent. `app://Example.com:443/a#top` and
/// `https://example.com/a` therefore meet (with the default rewrite).
struct PreloadKey: Hashable, Sendable, CustomStringConvertible {
    var method: HTTPRequest.Method
    var url: String

    init(method: HTTPRequest.Method, logicalURL: URL) {
        self.method = method
        self.url = logicalURL.absoluteString
    }

    var description: String { "\(method) \(url)" }
}
