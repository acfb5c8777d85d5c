/// A validated, relative path inside a package: the defence against "zip slip".
///
/// Accepted: `/`-separated components, none empty, `.` or `..`; no leading `/`, no drive letter
/// (`C:`), no backslash, no NUL, no component longer than 255 bytes. A directory entry may end with
/// one `/`. Anything else is rejected rather than "cleaned", so that what is installed is exactly what
/// the archive names.
struct ZipEntryPath: Hashable {
    /// The components, e.g. `["css", "site.css"]`.
    let components: [Substring]
    /// The components joined with `/`.
    var relative: String { components.joined(separator: "/") }

    /// Validates `raw`; `isDirectory` allows one trailing `/`.
    init(_ raw: String, isDirectory: Bool = false) throws {
        func reject(_ reason: String) -> PackageStoreError {
            PackageStoreError(.unsafeEntryPath(path: raw, reason: reason))
        }
        var path = Substring(raw)
        if isDirectory && path.hasSuffix("/") { path = path.dropLast() }
        guard !path.isEmpty else { throw reject("the path is empty") }
        guard !path.hasPrefix("/") else { throw reject("the path is absolute") }
        guard !path.contains("\\") else { throw reject("the path contains a backslash") }
        guard !path.contains("\0") else { throw reject("the path contains NUL") }
        if path.count >= 2, path.first!.isLetter, path.dropFirst().first == ":" {
            throw reject("the path starts with a drive letter")
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        for part in parts {
            switch part {
            case "": throw reject("the path has an empty component")
            case ".": throw reject("the path has a '.' component")
            case "..": throw reject("the path has a '..' component")
            default: if part.utf8.count > 255 { throw reject("a component is longer than 255 bytes") }
            }
        }
        components = parts
    }
}
