public import Foundation
import HTTPTypes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Saves what the network returned into a local directory, so a file handler can serve it next
/// time (the "fetch once, then load locally" of hybrid apps).
///
/// Layout: `directory/<host>/<path>`, `index.html` for paths ending in `/` — the layout a
/// per-host local file handler serves.
///
/// What is stored: GET, status 200, no query string, not an image (`Content-Type: image/*` or an
/// image extension: the image cache owns those), and never a response with `Cache-Control:
/// no-store` or `private`, or with `Set-Cookie`.
///
/// Safety: the URL path is decoded and checked by ``SafeRelativePath``, the one decoder the file
/// handler uses too (dot segments, encoded separators, backslashes, NUL and invalid UTF-8 are
/// refused), and hidden names (`.partial`, `.git`) and empty segments are refused as well. The
/// file is put in place by walking `directory` component by component with `openat(…,
/// O_NOFOLLOW)` (creating missing directories with `mkdirat`) and `renameat` into the last
/// directory opened, so a symbolic link inside `directory` cannot redirect the write either.
/// Bytes go to a temporary file under `directory/.partial/`, which is renamed into place only
/// after the whole body arrived (and matched `Content-Length` when given); a cut or cancelled
/// response leaves nothing behind. A failing disk never fails the request: the entry is skipped.
public struct NetworkWriteThrough: Sendable {
    /// The directory files are stored under.
    public let directory: URL

    /// Creates a write-through into `directory` (created on first use).
    public init(directory: URL) {
        self.directory = directory.standardizedFileURL
    }

    /// Image extensions the image cache owns.
    static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "webp", "avif", "bmp", "ico", "svg", "heic", "heif", "tif", "tiff", "apng",
    ]

    /// Whether a response may be stored.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - url: The logical network URL.
    ///   - response: The upstream response head.
    public static func isStorable(method: HTTPRequest.Method, url: URL, response: SchemeResponse) -> Bool {
        guard method == .get, response.status == .ok else { return false }
        guard URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery == nil else { return false }
        if response.headerFields[.setCookie] != nil { return false }
        for value in response.headerFields[values: .cacheControl] {
            for directive in value.lowercased().split(separator: ",") {
                let name = directive.split(separator: "=").first?.trimmingCharacters(in: .whitespaces) ?? ""
                if name == "no-store" || name == "private" { return false }
            }
        }
        if let type = response.mimeType, type.hasPrefix("image/") { return false }
        if imageExtensions.contains(url.pathExtension.lowercased()) { return false }
        return true
    }

    /// The file a URL maps to, or `nil` when its host or path is not safe to map.
    public func fileURL(for url: URL) -> URL? {
        guard let components = relativeComponents(for: url) else { return nil }
        return components.reduce(directory) { $0.appendingPathComponent($1, isDirectory: false) }
    }

    /// The components under ``directory`` a URL maps to (`<host>[_<port>]`, then the decoded
    /// path, `index.html` for a directory), or `nil` when the URL is not safe to map.
    func relativeComponents(for url: URL) -> [String]? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let host = components.percentEncodedHost?.lowercased(), !host.isEmpty, host.count <= 253,
            host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }),
            !host.hasPrefix(".")
        else { return nil }
        var hostDirectory = host
        if let port = components.port { hostDirectory += "_\(port)" }

        let rawPath = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        // One decoder for every path that becomes a file; empty segments are refused here too, so
        // `a//b` and `a/b` are not two names for one file.
        guard !rawPath.contains("//"), let path = try? SafeRelativePath(percentEncodedPath: rawPath), !path.isHidden
        else { return nil }
        var result = [hostDirectory] + path.components
        if path.components.isEmpty || path.hasTrailingSlash { result.append("index.html") }
        return result
    }

    /// Opens a temporary file for `url`'s body; `nil` when the URL does not map or the disk fails.
    func begin(url: URL, expectedLength: Int64?) -> NetworkWriteThroughFile? {
        guard let destination = relativeComponents(for: url) else { return nil }
        let partial = directory.appendingPathComponent(".partial", isDirectory: true)
        let temporary = partial.appendingPathComponent(UUID().uuidString, isDirectory: false)
        do {
            try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else { return nil }
            let handle = try FileHandle(forWritingTo: temporary)
            return NetworkWriteThroughFile(
                handle: handle,
                temporary: temporary,
                directory: directory,
                destination: destination,
                expectedLength: expectedLength
            )
        } catch {
            return nil
        }
    }
}

/// One response being written through: a temporary file renamed into place on ``commit()``.
final class NetworkWriteThroughFile {
    private let handle: FileHandle
    private let temporary: URL
    private let directory: URL
    /// Safe components under `directory` (see ``NetworkWriteThrough/relativeComponents(for:)``).
    private let destination: [String]
    private let expectedLength: Int64?
    private var written: Int64 = 0
    private var broken = false
    private var closed = false

    init(handle: FileHandle, temporary: URL, directory: URL, destination: [String], expectedLength: Int64?) {
        self.handle = handle
        self.temporary = temporary
        self.directory = directory
        self.destination = destination
        self.expectedLength = expectedLength
    }

    deinit {
        if !closed { discard() }
    }

    func append(_ data: Data) {
        guard !broken else { return }
        do {
            try handle.write(contentsOf: data)
            written += Int64(data.count)
        } catch {
            broken = true
        }
    }

    /// Moves the complete file into place; returns whether it was stored.
    @discardableResult
    func commit() -> Bool {
        closed = true
        try? handle.close()
        guard !broken, expectedLength == nil || expectedLength == written else {
            try? FileManager.default.removeItem(at: temporary)
            return false
        }
        // rename(2) replaces atomically: a reader sees the old file or the new one, never a part.
        guard let name = destination.last,
            case .success(let parent) = FileResolver.openDirectory(
                rootPath: directory.path, components: destination.dropLast(), creating: true)
        else {
            try? FileManager.default.removeItem(at: temporary)
            return false
        }
        defer { POSIX.close(parent) }
        guard renameat(AT_FDCWD, temporary.path, parent, name) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            return false
        }
        return true
    }

    /// Drops the temporary file.
    func discard() {
        closed = true
        try? handle.close()
        try? FileManager.default.removeItem(at: temporary)
    }
}
