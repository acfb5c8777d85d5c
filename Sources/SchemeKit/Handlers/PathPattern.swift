import Foundation

/// A glob over URL paths, such as `/**`, `/*.js` or `/assets/**/*.{woff2,png}`: which responses a
/// ``HeaderRule`` applies to.
///
/// The pattern is matched segment by segment against the request's path, percent-decoded (so
/// `/my file.txt` matches a request for `/my%20file.txt`), case-sensitively, without its query:
///
/// | Syntax | Matches |
/// |---|---|
/// | `*` | any run of characters within one segment, the empty run included (never a `/`) |
/// | `?` | exactly one character other than `/` |
/// | `**` (a whole segment) | zero or more whole segments: `/**` matches every path, `/a/**` matches `/a` and everything below it |
/// | `{js,mjs}` | one of the comma-separated alternatives (not nested) |
/// | anything else | itself |
///
/// So `/*.js` matches `/app.js` but not `/lib/app.js`; `/**/*.js` matches both. A `*` matches a
/// leading dot too (`/*` matches `/.env`). `**` inside a segment (`/a**b`) is two `*`.
///
/// ```swift
/// let scripts = PathPattern("/**/*.{js,mjs}")!
/// scripts.matches("/js/main.mjs")   // true
/// scripts.matches("/index.html")    // false
/// ```
public struct PathPattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let rawValue: String
    /// Each alternative of the braces, split into segments.
    private let alternatives: [[Segment]]

    private enum Segment: Sendable, Hashable {
        /// `**`: zero or more whole segments.
        case anySegments
        /// A segment glob, as Unicode scalars (`*` and `?` are wildcards).
        case glob([Unicode.Scalar])
    }

    /// Parses a pattern.
    ///
    /// - Returns: `nil` when `pattern` does not start with `/`, or has an unclosed or nested `{`.
    public init?(_ pattern: String) {
        guard pattern.hasPrefix("/"), let expanded = Self.expandBraces(pattern) else { return nil }
        self.rawValue = pattern
        self.alternatives = expanded.map { alternative in
            var segments: [Segment] = []
            for part in alternative.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
                if part == "**" {
                    // Consecutive `**` segments mean the same as one.
                    if segments.last != .anySegments { segments.append(.anySegments) }
                } else {
                    segments.append(.glob(Array(part.unicodeScalars)))
                }
            }
            return segments
        }
    }

    /// The pattern as written.
    public var description: String { rawValue }

    /// Whether `path` (a URL path, percent-encoded or not, without a query) matches.
    ///
    /// The path is percent-decoded once before matching; a path that does not decode to UTF-8 is
    /// matched as written.
    public func matches(_ path: String) -> Bool {
        matches(decodedPath: path.removingPercentEncoding ?? path)
    }

    /// Whether a path that is already percent-decoded (a request's normalised path) matches, as
    /// it is: decoding it again would let `/a%41.js` (a file named `a%41.js`) match `/aA.js`.
    package func matches(decodedPath decoded: String) -> Bool {
        guard decoded.hasPrefix("/") else { return false }
        let segments = decoded.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            Array($0.unicodeScalars)
        }
        return alternatives.contains { Self.match($0, segments) }
    }

    // MARK: Matching

    /// Whether the pattern segments match the path segments: a dynamic programme over
    /// (pattern index, path index), so a pattern with several `**` stays O(n·m).
    private static func match(_ pattern: [Segment], _ path: [[Unicode.Scalar]]) -> Bool {
        // reachable[j]: the first i pattern segments can match the first j path segments.
        var reachable = [Bool](repeating: false, count: path.count + 1)
        reachable[0] = true
        for segment in pattern {
            var next = [Bool](repeating: false, count: path.count + 1)
            switch segment {
            case .anySegments:
                var seen = false
                for index in 0...path.count {
                    seen = seen || reachable[index]
                    next[index] = seen
                }
            case .glob(let glob):
                for index in 0..<path.count where reachable[index] && matchSegment(glob, path[index]) {
                    next[index + 1] = true
                }
            }
            reachable = next
        }
        return reachable[path.count]
    }

    /// Wildcard matching of one segment (`*`, `?`), greedy with one backtrack point: linear in
    /// practice, O(n·m) at worst.
    private static func matchSegment(_ glob: [Unicode.Scalar], _ text: [Unicode.Scalar]) -> Bool {
        var globIndex = 0
        var textIndex = 0
        var starGlob = -1
        var starText = 0
        while textIndex < text.count {
            if globIndex < glob.count, glob[globIndex] == "?" || glob[globIndex] == text[textIndex] {
                globIndex += 1
                textIndex += 1
            } else if globIndex < glob.count, glob[globIndex] == "*" {
                starGlob = globIndex
                starText = textIndex
                globIndex += 1
            } else if starGlob >= 0 {
                globIndex = starGlob + 1
                starText += 1
                textIndex = starText
            } else {
                return false
            }
        }
        while globIndex < glob.count, glob[globIndex] == "*" { globIndex += 1 }
        return globIndex == glob.count
    }

    /// `a{b,c}d{e,f}` → `abde`, `abdf`, `acde`, `acdf`; `nil` for an unclosed or nested brace.
    private static func expandBraces(_ pattern: String) -> [String]? {
        var results = [""]
        var rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { return nil }
            let inner = rest[rest.index(after: open)..<close]
            guard !inner.contains("{") else { return nil }
            let prefix = rest[..<open]
            let options = inner.split(separator: ",", omittingEmptySubsequences: false)
            results = results.flatMap { start in options.map { start + prefix + $0 } }
            // Guard against a pattern that expands into an unreasonable number of alternatives.
            guard results.count <= 1024 else { return nil }
            rest = rest[rest.index(after: close)...]
        }
        guard !rest.contains("}") else { return nil }
        return results.map { $0 + rest }
    }
}
