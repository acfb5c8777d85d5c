import Foundation

/// A parsed `Accept-Encoding` header ([RFC 9110 §12.5.3](https://www.rfc-editor.org/rfc/rfc9110#section-12.5.3)):
/// which content codings the client accepts.
///
/// Shared by the file handler (precompressed siblings) and schemeserve (on-the-fly gzip).
package struct AcceptEncoding: Sendable {
    private var weights: [Substring: Double] = [:]

    /// Parses a header value such as `gzip, deflate, br;q=0.5, *;q=0`.
    package init(_ header: String) {
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let coding = parts.first?.trimmingCharacters(in: .whitespaces).lowercased(), !coding.isEmpty else {
                continue
            }
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "q" {
                    weight = Double(pair[1].trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
            weights[Substring(coding)] = weight
        }
    }

    /// Whether `coding` (lowercase) is acceptable: listed with q > 0, or covered by `*` with q > 0.
    package func allows(_ coding: String) -> Bool {
        if let weight = weights[Substring(coding)] { return weight > 0 }
        if let weight = weights["*"] { return weight > 0 }
        return false
    }
}
