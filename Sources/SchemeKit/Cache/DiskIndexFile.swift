import Foundation

/// The persisted form of a ``DiskStorage/Backend``'s index: for each entry file, its key, size,
/// expiry and last access, least recently used first. Written atomically (temporary file +
/// rename) after every change; read when the backend opens its directory.
///
/// The index is a hint, not the truth: every entry file carries its own verified header
/// (``DiskEntryHeader``), so a lost or stale index only costs access-order precision — entries
/// missing from it are read back from their headers, with their store date as last access.
struct DiskIndexFile: Codable, Sendable {
    static let name = "index.json"
    static let currentVersion = 1

    struct Entry: Codable, Sendable {
        /// The entry file's name.
        var file: String
        var key: String
        var size: Int
        /// Milliseconds since 1970; `nil` for never.
        var expires: Int64?
        /// Milliseconds since 1970.
        var accessed: Int64
    }

    var version = currentVersion
    var entries: [Entry]
}
