package import Foundation

/// A HAR 1.2 file (HTTP Archive): what browsers export from their network panels, what
/// ``HARRecorder`` writes and what ``HARReplayHandler`` answers from.
///
/// Reads HARs written by browsers as well as SchemeKit's own: Chromium's DevTools export (custom
/// `_resourceType`, `_initiator`, `_transferSize` fields, bodies without `text`, `postData` with
/// `params`, base64 bodies, repeated headers, cookies, `-1` timings), Firefox's, Playwright's
/// (bodies beside the file in `_file`). Malformed, truncated or mistyped files throw a
/// ``HARError`` that names the entry, never trap.
///
/// ```swift
/// let archive = try HARArchive(contentsOf: URL(fileURLWithPath: "fixtures/site.har"))
/// for entry in archive.entries { print(entry.request.method, entry.request.url, entry.response.status) }
/// let data = try archive.encoded()   // reads back equal: try HARArchive(data: data) == archive
/// ```
package struct HARArchive: Sendable, Hashable, Codable {
    /// The log: creator, pages, entries.
    package var log: HARLog

    /// Creates an archive.
    ///
    /// - Parameter log: The log. Default: an empty HAR 1.2 log created by SchemeKit.
    package init(log: HARLog = HARLog()) {
        self.log = log
    }

    /// The entries, in order (``HARLog/entries``).
    package var entries: [HAREntry] {
        get { log.entries }
        set { log.entries = newValue }
    }

    /// Reads an archive from the bytes of a HAR file (JSON, with Foundation's `JSONDecoder`).
    ///
    /// - Throws: ``HARError`` — `truncated`, `malformedJSON`, `invalidArchive`, `invalidEntry` —
    ///   naming the entry (index, and URL when it was read) and the field or byte offset where the
    ///   problem is; `zipArchive` for Playwright's `.har.zip`, which must be unzipped first.
    package init(data: Data) throws(HARError) {
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            throw HARError(
                .zipArchive,
                "this is a zip archive (Playwright's .har.zip): unzip it first (the .har and its body files into one directory), or pass it to schemeserve --har or headless-render --har"
            )
        }
        // Foundation's JSON scanner traps, instead of throwing, on arrays nested 513 deep (found
        // by FuzzHAR): deeper nesting than any HAR file has is refused before it is parsed.
        if let offset = Self.nestingDeeperThan(Self.maximumNesting, in: data) {
            throw HARError(
                .malformedJSON, "arrays and objects nested more than \(Self.maximumNesting) deep",
                byteOffset: offset)
        }
        do {
            self = try JSONDecoder().decode(HARArchive.self, from: data)
        } catch let error as HARError {
            throw error
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw HARError.syntax(in: data)
        } catch {
            throw HARError(.invalidArchive, decoding: error)
        }
    }

    /// The deepest nesting of arrays and objects read, Foundation's own limit (a HAR file nests
    /// about six deep; `_` members may nest more).
    static let maximumNesting = 512

    /// The offset of the first `[` or `{` (outside strings) that opens more than `limit` levels,
    /// or `nil`: one pass over the bytes, no values built.
    static func nestingDeeperThan(_ limit: Int, in data: Data) -> Int? {
        var depth = 0
        var inString = false
        var escaped = false
        for (offset, byte) in data.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return offset }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return nil
    }

    /// Reads an archive from a HAR file.
    ///
    /// - Throws: ``HARError/Kind/readFailed`` when the file cannot be read, and the errors of
    ///   ``init(data:)``.
    package init(contentsOf url: URL) throws(HARError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw HARError(.readFailed, "cannot read \(url.lastPathComponent): \(error.localizedDescription)")
        }
        try self.init(data: data)
    }

    /// Reads an archive: a `log` object is required (see ``HARLog/init(from:)``).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: HARCodingKey.self)
        self.init(log: try container.required("log"))
    }

    /// Writes the archive: `{"log": …}`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: HARCodingKey.self)
        try container.encode(log, forKey: "log")
    }

    /// The archive as HAR JSON (Foundation's `JSONEncoder`): UTF-8, indented, members sorted by
    /// name, so the same archive always gives the same bytes.
    ///
    /// - Throws: ``HARError`` naming the entry and field of a value JSON cannot hold (a number
    ///   that is not finite).
    package func encoded() throws(HARError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self)
        } catch {
            throw HARError(encoding: error, in: self)
        }
    }

    /// Writes the archive to `url` atomically: into a temporary file beside it, flushed to disk,
    /// then renamed over `url`, so a crash leaves the old file or the new one, never a torn one.
    ///
    /// - Throws: ``HARError/Kind/writeFailed``.
    package func write(to url: URL) throws(HARError) {
        try HARFileIO.writeAtomically(encoded(), to: url)
    }
}
