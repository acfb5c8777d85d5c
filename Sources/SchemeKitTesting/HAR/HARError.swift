/// Why a HAR file could not be read, written or replayed: a typed error that names the entry
/// (its index in `log.entries` and its URL, where known), never a crash.
///
/// ```swift
/// do {
///     _ = try HARReplayHandler(contentsOf: url)
/// } catch {
///     print(error)   // "truncated HAR: entry 2 (https://example.com/app.js), at byte 1812: the file ends inside a string"
///     error.kind == .truncated; error.entryIndex == 2
/// }
/// ```
public struct HARError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem: an open set of constants, compared with `==`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The bytes are not JSON (a syntax error, nesting too deep).
        public static let malformedJSON = Kind("malformed HAR")
        /// The file ends before its JSON does: a torn or cut file.
        public static let truncated = Kind("truncated HAR")
        /// The JSON is not a HAR archive: no `log`, `log.entries` not an array.
        public static let invalidArchive = Kind("invalid HAR")
        /// An entry lacks a required field (`request.method`, `request.url`, `response.status`)
        /// or has a field of the wrong type (a number out of range included), or holds a value
        /// JSON cannot (a number that is not finite, when encoding).
        public static let invalidEntry = Kind("invalid HAR entry")
        /// The file is a zip archive — Playwright's `.har.zip`, the HAR with its body files — which
        /// must be unzipped first (`schemeserve --har` and `headless-render --har` read it as it is).
        public static let zipArchive = Kind("zipped HAR")
        /// A body cannot be decoded: invalid base64, an unknown `encoding`.
        public static let invalidBody = Kind("invalid HAR body")
        /// A body file (`_file`) is missing or its size differs from the recorded size.
        public static let missingBodyFile = Kind("missing HAR body file")
        /// A body file name (`_file`) is not a plain file name beside the HAR file (`../x`, `/etc/x`),
        /// or names a symbolic link there (never followed).
        public static let unsafeBodyFile = Kind("unsafe HAR body file")
        /// The HAR file or a body file could not be read.
        public static let readFailed = Kind("unreadable HAR")
        /// The HAR file or a body file could not be written.
        public static let writeFailed = Kind("unwritable HAR")
        /// The entry replayed was recorded as a network failure (a status below 100, Chromium's
        /// `_error`): replay fails the task as the original request failed.
        public static let recordedFailure = Kind("recorded failure")
        /// Replay found no entry for a request (``HARReplayHandler/MissingEntryPolicy/fail``).
        public static let noMatchingEntry = Kind("no HAR entry")

        /// The kind's name, as it starts ``HARError/description``.
        public var description: String { name }
    }

    /// The kind of problem.
    public let kind: Kind
    /// The entry's index in `log.entries`, when the problem is in one.
    public let entryIndex: Int?
    /// The entry's request URL, when it was read before the problem.
    public let entryURL: String?
    /// Where in the entry (`response.status`) or the archive (`log.entries`) the problem is, if known.
    public let field: String?
    /// The byte offset in the file where reading stopped, for JSON problems.
    public let byteOffset: Int?
    /// What is wrong, in a few words.
    public let reason: String

    init(
        _ kind: Kind, _ reason: String, entryIndex: Int? = nil, entryURL: String? = nil, field: String? = nil,
        byteOffset: Int? = nil
    ) {
        self.kind = kind
        self.reason = reason
        self.entryIndex = entryIndex
        self.entryURL = entryURL
        self.field = field
        self.byteOffset = byteOffset
    }

    /// One line: the kind, the entry (index and URL), the field or offset, the reason.
    public var description: String {
        var parts: [String] = []
        if let entryIndex {
            parts.append(entryURL.map { "entry \(entryIndex) (\($0))" } ?? "entry \(entryIndex)")
        }
        if let field { parts.append(field) }
        if let byteOffset { parts.append("at byte \(byteOffset)") }
        let location = parts.isEmpty ? "" : parts.joined(separator: ", ") + ": "
        return "\(kind): \(location)\(reason)"
    }

    /// The same error, located in an entry.
    func located(entryIndex: Int, entryURL: String?) -> HARError {
        HARError(
            kind, reason, entryIndex: entryIndex, entryURL: entryURL ?? self.entryURL, field: field,
            byteOffset: byteOffset)
    }
}
