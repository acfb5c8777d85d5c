import Foundation
import SchemeKit

#if canImport(CDispatch)
    import CDispatch
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Maps a request path to a file under the root, safely: what the small-file cache uses to find
/// the file whose size and modification time validate a cached response (it never serves a file
/// itself; serving is the file handler's job).
///
/// Rules: percent-decode exactly once; refuse encoded separators (`%2f`, `%5c`), backslashes,
/// NUL (raw or `%00`), invalid UTF-8, `..` segments and overlong paths; resolve symlinks with
/// `realpath(3)` and accept the result only when it is the root or inside it by whole path
/// components (`root-old/` is not inside `root/`).
struct ServePathResolver: Sendable {
    /// What a path resolved to.
    enum Resolution: Equatable, Sendable {
        /// A regular file: its real path and metadata.
        case file(path: String, stamp: FileStamp)
        /// A directory (real path) with no `index.html`.
        case directory(path: String)
        /// Nothing there (or not a regular file / directory).
        case notFound
        /// A path that tries to leave the root or is malformed.
        case forbidden
    }

    /// The real path of the root, without a trailing slash.
    let rootPath: String
    /// The longest request path accepted, in bytes.
    let maximumPathLength = 4096

    /// Creates a resolver for `root`; `nil` when the root is not an existing directory.
    init?(root: URL) {
        guard let real = Self.realPath(root.path(percentEncoded: false)) else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        rootPath = real == "/" ? "" : real
    }

    /// The decoded path segments of `encodedPath`, or `nil` when the path is unsafe.
    func segments(of encodedPath: String) -> [Substring]? {
        guard encodedPath.utf8.count <= maximumPathLength else { return nil }
        let lowered = encodedPath.lowercased()
        if lowered.contains("%2f") || lowered.contains("%5c") || lowered.contains("%00") || encodedPath.contains("\\") {
            return nil
        }
        guard let decoded = encodedPath.removingPercentEncoding else { return nil }
        if decoded.utf8.contains(0) || decoded.contains("\\") { return nil }
        var result: [Substring] = []
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." { return nil }
            result.append(segment)
        }
        return result
    }

    /// Resolves `encodedPath` (as in ``SchemeRequest/path``) under the root.
    ///
    /// - Parameter index: The file served for a directory (`index.html`), or `nil` to report the
    ///   directory itself.
    func resolve(_ encodedPath: String, index: String? = "index.html") -> Resolution {
        guard let segments = segments(of: encodedPath) else { return .forbidden }
        var candidate = rootPath
        for segment in segments {
            candidate += "/"
            candidate += segment
        }
        if candidate.isEmpty { candidate = "/" }
        return resolveJoined(candidate, index: index)
    }

    private func resolveJoined(_ candidate: String, index: String?) -> Resolution {
        guard let real = Self.realPath(candidate) else { return .notFound }
        guard contains(real) else { return .forbidden }
        guard let stamp = FileStamp(path: real) else { return .notFound }
        switch stamp.kind {
        case .regular:
            return .file(path: real, stamp: stamp)
        case .directory:
            guard let index else { return .directory(path: real) }
            switch resolveJoined(real + "/" + index, index: nil) {
            case .file(let path, let stamp): return .file(path: path, stamp: stamp)
            case .forbidden: return .forbidden
            default: return .directory(path: real)
            }
        case .other:
            return .notFound
        }
    }

    /// Whether the real path `path` is the root or inside it, by whole components.
    func contains(_ path: String) -> Bool {
        if rootPath.isEmpty { return path.hasPrefix("/") }
        return path == rootPath
            || (path.hasPrefix(rootPath) && path.utf8.dropFirst(rootPath.utf8.count).first == UInt8(ascii: "/"))
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// The identity of a file's contents as far as caching goes: kind, size, modification time, inode.
struct FileStamp: Equatable, Sendable {
    enum Kind: Sendable { case regular, directory, other }

    let kind: Kind
    let size: Int64
    /// Modification time, nanoseconds since 1970.
    let modified: Int64
    let inode: UInt64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        kind = type == S_IFREG ? .regular : type == S_IFDIR ? .directory : .other
        size = Int64(info.st_size)
        #if canImport(Darwin)
            modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
        inode = UInt64(info.st_ino)
    }

    /// The modification time as a date, truncated to whole seconds (what HTTP dates carry).
    var modificationDate: Date {
        Date(timeIntervalSince1970: TimeInterval(modified / 1_000_000_000))
    }

    /// A strong entity tag derived from inode, size and modification time.
    var entityTag: String {
        "\"\(String(inode, radix: 16))-\(String(size, radix: 16))-\(String(modified, radix: 16))\""
    }
}
