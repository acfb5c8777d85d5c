import HTTPTypes

/// Whether a request is a page navigation, from what it says about itself: what a single-page
/// app's fallback decides by (see ``LocalFileHandler/NavigationRule/byRequest``).
package enum NavigationRequest {
    /// `true` for `Sec-Fetch-Mode: navigate`; `false` for any other `Sec-Fetch-Mode`; without one,
    /// whether `Accept` lists `text/html` with a weight above zero and at least that of every other
    /// type; `nil` when the request has neither field.
    package static func isNavigation(_ fields: HTTPFields) -> Bool? {
        if let mode = fields[.secFetchMode] { return mode.lowercased() == "navigate" }
        guard let accept = fields[.accept] else { return nil }
        var html = 0.0
        var others = 0.0
        var listsHTML = false
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let range = parts.first?.trimmed.lowercased(), !range.isEmpty else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmed.lowercased() == "q" {
                    weight = Double(pair[1].trimmed) ?? 0
                }
            }
            if range == "text/html" {
                listsHTML = true
                html = max(html, weight)
            } else {
                others = max(others, weight)
            }
        }
        return listsHTML && html > 0 && html >= others
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmed: Substring {
        var value = self
        while let first = value.first, first == " " || first == "\t" { value = value.dropFirst() }
        while let last = value.last, last == " " || last == "\t" { value = value.dropLast() }
        return value
    }
}
