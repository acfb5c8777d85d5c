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
/// Layout: `directory/<host>/<path>` of the page's request (`app://localhost/a/b.js` →
/// `localhost/a/b.js`, whatever origin answered it; `<host>_<port>` when the URL has a port),
/// `index.html` for paths ending in `/` — what a `LocalFileHandler` with
/// `usesHostSubdirectories` on the same directory, ahead of the network in the chain, serves next
/// time.
///
/// What is stored: GET, status 200, no query string, not an image (`Content-Type: image/*` or an
/// image extension: the image cache owns those), and never a response with `Cache-Control:
/// no-store` or `private`, or with `Set-Cookie`.
///
/// Safety: the URL path is decoded and checked by `SafeRelativePath`, the one decoder the file
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
    ///   - url: The page's request URL.
    ///   - response: The upstream response head.
    package static func isStorable(method: HTTPRequest.Method, url: URL, response: SchemeResponse) -> Bool {
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
    package func fileURL(for url: URL) -> URL? {
        guard let components = relativeComponents(for: url) else { return nil }
        return components.reduce(directory) { $0.appendingPathComponent($1, isDirectory: false) }
    }

    /// The components under ``directory`` a URL maps to (`<host>[_<port>]`, then the decoded
    /// path, `index.html` for a directory), or `nil` when the URL is not safe to map.
    func relativeComponents(for url: URL) -> [String]? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let host = components.encodedHost?.lowercased(), !host.isEmpty, host.count <= 253,
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
        do {
            try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
            let writer = try AtomicFile.Writer(
                temporaryPath: partial.appendingPathComponent(UUID().uuidString, isDirectory: false).path)
            return NetworkWriteThroughFile(
                writer: writer, directory: directory, destination: destination, expectedLength: expectedLength)
        } catch {
            return nil
        }
    }
}

/// One response being written through: a temporary file put in place on ``commit()`` by
/// ``AtomicFile`` (`fsync`, `renameat` into the directory walked with `O_NOFOLLOW`, `fsync` of
/// that directory), so a crash at any moment leaves the old file, the new one or none.
final class NetworkWriteThroughFile {
    private let writer: AtomicFile.Writer
    private let directory: URL
    /// Safe components under `directory` (see ``NetworkWriteThrough/relativeComponents(for:)``).
    private let destination: [String]
    private let expectedLength: Int64?
    private var broken = false

    init(writer: AtomicFile.Writer, directory: URL, destination: [String], expectedLength: Int64?) {
        self.writer = writer
        self.directory = directory
        self.destination = destination
        self.expectedLength = expectedLength
    }

    /// Appends body bytes; after a disk error the entry is only discarded.
    func append(_ data: Data) {
        guard !broken else { return }
        do {
            try writer.append(data)
        } catch {
            broken = true
        }
    }

    /// Moves the complete file into place; returns whether it was stored.
    @discardableResult
    func commit() -> Bool {
        guard !broken, expectedLength == nil || expectedLength == writer.count, let name = destination.last,
            case .success(let parent) = FileResolver.openDirectory(
                rootPath: directory.path, components: destination.dropLast(), creating: true)
        else {
            writer.discard()
            return false
        }
        defer { POSIX.close(parent) }
        do {
            try writer.commit(toName: name, in: parent, durability: .persistent)
            return true
        } catch {
            return false
        }
    }

    /// Drops the temporary file (a released file that was not committed is dropped too).
    func discard() {
        writer.discard()
    }
}
