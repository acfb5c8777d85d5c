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
/// Safety: each URL path segment is percent-decoded once and rejected when it is empty, `.`,
/// `..`, starts with `.`, or contains `/`, `\` or NUL, so no URL can write outside `directory`.
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
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let host = components.percentEncodedHost?.lowercased(), !host.isEmpty, host.count <= 253,
            host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }),
            host != ".", host != "..", !host.hasPrefix(".")
        else { return nil }
        var hostDirectory = host
        if let port = components.port { hostDirectory += "_\(port)" }

        let rawPath = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        guard rawPath.hasPrefix("/"), rawPath.utf8.count <= 1024 else { return nil }
        var segments = rawPath.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if segments.last == "" { segments[segments.count - 1] = "index.html" }
        var result = directory.appendingPathComponent(hostDirectory, isDirectory: true)
        for segment in segments {
            guard let decoded = segment.removingPercentEncoding, !decoded.isEmpty, decoded.utf8.count <= 255,
                !decoded.hasPrefix("."), !decoded.contains("/"), !decoded.contains("\\"), !decoded.contains("\0")
            else { return nil }
            result.appendPathComponent(decoded, isDirectory: false)
        }
        // Belt and braces: the result must still be inside the directory.
        guard result.standardizedFileURL.path.hasPrefix(directory.path + "/") else { return nil }
        return result
    }

    /// Opens a temporary file for `url`'s body; `nil` when the URL does not map or the disk fails.
    func begin(url: URL, expectedLength: Int64?) -> NetworkWriteThroughFile? {
        guard let destination = fileURL(for: url) else { return nil }
        let partial = directory.appendingPathComponent(".partial", isDirectory: true)
        let temporary = partial.appendingPathComponent(UUID().uuidString, isDirectory: false)
        do {
            try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else { return nil }
            let handle = try FileHandle(forWritingTo: temporary)
            return NetworkWriteThroughFile(
                handle: handle,
                temporary: temporary,
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
    private let destination: URL
    private let expectedLength: Int64?
    private var written: Int64 = 0
    private var broken = false
    private var closed = false

    init(handle: FileHandle, temporary: URL, destination: URL, expectedLength: Int64?) {
        self.handle = handle
        self.temporary = temporary
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
        do {
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return false
        }
        // rename(2) replaces atomically: a reader sees the old file or the new one, never a part.
        guard rename(temporary.path, destination.path) == 0 else {
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
