#if Chromium || Firefox
    import Foundation

    /// Narrows an open-ended byte range (`bytes=N-`, what a media element asks first) to at most
    /// `cap` bytes, so a large file goes to a browser in parts no bigger than one message allows.
    package enum OpenEndedRange {
        /// `bytes=N-` → `bytes=N-(N+cap-1)`; `nil` for any other value (closed, suffix or several
        /// ranges, or not a byte range), which is then left as it is.
        package static func capped(_ value: String, cap: Int) -> String? {
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            guard trimmed.lowercased().hasPrefix("bytes="), !trimmed.contains(","), trimmed.hasSuffix("-") else {
                return nil
            }
            let digits = trimmed.dropFirst("bytes=".count).dropLast().trimmingCharacters(in: .whitespaces)
            guard let start = Int(digits), start >= 0, cap > 0, start <= Int.max - cap else { return nil }
            return "bytes=\(start)-\(start + cap - 1)"
        }
    }
#endif
