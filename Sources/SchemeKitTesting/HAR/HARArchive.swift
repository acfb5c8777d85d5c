public import Foundation

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
/// let data = archive.encoded()   // reads back equal: try HARArchive(data: data) == archive
/// ```
public struct HARArchive: Sendable, Hashable {
    /// The log: creator, pages, entries.
    public var log: HARLog

    /// Creates an archive.
    ///
    /// - Parameter log: The log. Default: an empty HAR 1.2 log created by SchemeKit.
    public init(log: HARLog = HARLog()) {
        self.log = log
    }

    /// The entries, in order (``HARLog/entries``).
    public var entries: [HAREntry] {
        get { log.entries }
        set { log.entries = newValue }
    }

    /// Reads an archive from the bytes of a HAR file (UTF-8 JSON).
    ///
    /// - Throws: ``HARError`` — `truncated`, `malformedJSON`, `invalidArchive`, `invalidEntry` —
    ///   naming the entry (index, and URL when it was read) where the problem is.
    public init(data: Data) throws(HARError) {
        try self.init(json: HARJSONReader.read(data))
    }

    /// Reads an archive from a HAR file.
    ///
    /// - Throws: ``HARError/Kind/readFailed`` when the file cannot be read, and the errors of
    ///   ``init(data:)``.
    public init(contentsOf url: URL) throws(HARError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw HARError(.readFailed, "cannot read \(url.lastPathComponent): \(error.localizedDescription)")
        }
        try self.init(data: data)
    }

    /// The archive as HAR JSON: UTF-8, two-space indentation, fields in the specification's order.
    public func encoded() -> Data {
        var writer = HARJSONWriter()
        write(into: &writer)
        return Data(writer.bytes)
    }

    /// Writes the archive to `url` atomically: into a temporary file beside it, flushed to disk,
    /// then renamed over `url`, so a crash leaves the old file or the new one, never a torn one.
    ///
    /// - Throws: ``HARError/Kind/writeFailed``.
    public func write(to url: URL) throws(HARError) {
        try HARFileIO.writeAtomically(encoded(), to: url)
    }
}
