public import Foundation
import HTTPTypes

/// Serves the files of a directory: the local half of a hybrid app (an offline package) and the
/// heart of the dev server.
///
/// `scheme://host/path` maps to `root/path` (or `root/host/path` with
/// ``Configuration/usesHostSubdirectories``). GET and HEAD are answered with `Content-Type` (from
/// ``MIMEDetector``: extension first, the first 1445 bytes sniffed for extensionless files),
/// `Content-Length`, `Last-Modified`, `ETag`, `Accept-Ranges: bytes` and `Cache-Control`.
///
/// ```swift
/// let files = LocalFileHandler(root: bundleDirectory)
/// try registry.register(SchemeHandlerChain(files, network), for: "app")
/// ```
///
/// ## Answers
/// | Situation | Answer |
/// |---|---|
/// | file found | 200, or 206 for a satisfiable `Range` (several ranges → `multipart/byteranges`) |
/// | `If-None-Match` / `If-Modified-Since` match | 304 with `ETag`, `Last-Modified`, `Cache-Control` |
/// | `If-Match` / `If-Unmodified-Since` fail | 412 |
/// | no satisfiable range | 416 with `Content-Range: bytes */size` |
/// | malformed `Range`, or `If-Range` mismatch | 200 with the whole file |
/// | nothing at the path (nor the SPA fallback) | ``SchemeHandlerOutcome/passed``, so a chain can try the network |
/// | the root itself is missing or not a directory | the task fails with ``LocalFileHandlerError/rootUnavailable(errno:)`` (see ``Configuration/unavailableRoot``) |
/// | unsafe path (see `SafeRelativePath`), special file | 403 `Forbidden`, answered directly |
/// | a symbolic link the ``SymlinkPolicy`` does not follow | 403 with a body naming the policy and ``LocalFileHandlerError/symlinkRefused(policy:)`` as the head's ``SchemeResponse/refusalReason`` |
/// | hidden file with ``HiddenFilePolicy/deny``; a path over 1024 bytes or a name over 255, decoded | 404 `Not Found`, answered directly |
///
/// Refusals are never passed on: a traversal attempt must not reach the network. Their bodies are
/// one line and never contain a filesystem path: `Forbidden`, `Not Found`, or for a refused link
/// `Forbidden: a symbolic link out of the served directory (symlink policy within-root; symlink
/// policy follow serves it)`.
///
/// ## A wrong root fails, it never passes
/// The root is checked when a request finds nothing, not when the handler is created: a
/// ``Root/dynamic(_:)`` root (a package store's active version) may legitimately not exist yet,
/// and a fixed directory may be created after the handler (or deleted while it serves). A request
/// that finds nothing because the root is missing, is not a directory or cannot be opened fails
/// with ``LocalFileHandlerError/rootUnavailable(errno:)`` instead of passing, so a typo in the
/// root shows up on the first request rather than as every file silently coming from the next
/// handler (the network). Requests that find their file pay nothing for the check. To fail even
/// earlier, call ``checkRoot()`` at startup; to let requests pass while a root does not exist
/// yet (an app that falls back to the network until its first package is installed), set
/// ``Configuration/unavailableRoot`` to ``UnavailableRootPolicy/pass``.
///
/// ## Validators
/// The `ETag` is **strong**: `"<size hex>-<mtime ns hex>"`. Any write through the file system
/// changes the modification time, and size plus nanosecond time identifies the bytes in practice;
/// a strong tag lets `If-Range` and `If-Match` work. (A file rewritten with the same size within
/// the same timestamp tick of a coarse file system would keep its tag.)
///
/// ## Safety
/// Paths are percent-decoded exactly once and checked by `SafeRelativePath`; files are opened
/// component by component with `openat(…, O_NOFOLLOW)` below a descriptor of the root, so nothing
/// outside the root is ever opened (see ``SymlinkPolicy`` for links).
///
/// ## Precompressed siblings and the body cache
/// With ``Configuration/precompressed``, a request that accepts `br` or `gzip` gets `name.br` or
/// `name.gz` when it exists next to `name` (found by the same walk, never by a second decoder).
/// With ``Configuration/bodyCache``, small files' bytes are kept in memory keyed by the open
/// file's `fstat`, after preconditions: a hit only saves the read.
///
/// ## Streaming
/// Files up to ``Configuration/chunkSize`` are read with one `pread` and written in one write.
/// Larger bodies stream chunk by chunk: memory stays at one chunk whatever the size, offsets are
/// 64-bit, and the loop checks for cancellation before each read, so stopping the task stops the
/// reading at once. Where reads run is ``Configuration/readMode``.
public struct LocalFileHandler: SchemeHandler {
    /// The configuration.
    package let configuration: Configuration
    let detector = MIMEDetector()
    let resolver: FileResolver
    /// The body cache, shared by copies of this handler; `nil` when ``Configuration/bodyCache`` is.
    let bodyCache: FileBodyCache?

    /// Creates a handler.
    ///
    /// - Precondition: `configuration.indexFileName`, when set, is a plain file name (no `/`,
    ///   not `.` or `..`).
    public init(configuration: Configuration) {
        if let index = configuration.indexFileName {
            precondition(
                !index.isEmpty && !index.contains("/") && index != "." && index != "..",
                "indexFileName must be a plain file name")
        }
        self.configuration = configuration
        self.resolver = FileResolver(symlinkPolicy: configuration.symlinks, indexFileName: configuration.indexFileName)
        self.bodyCache = configuration.bodyCache.map(FileBodyCache.init)
    }

    /// Creates a handler serving the directory at `root` with the default configuration.
    public init(root: URL) {
        self.init(configuration: Configuration(root: .directory(root)))
    }

    /// "files".
    public var name: String { "files" }

    /// Answers GET and HEAD from what the immediate half of ``answer(to:)`` located (and left
    /// open), by reading what it must: the writing half.
    func respondByReading(
        _ request: SchemeRequest, _ location: Location, negotiation: Negotiation, writer: some SchemeResponseWriter
    ) async throws -> SchemeHandlerOutcome {
        switch location {
        case .passed:
            return .passed
        case .refused(let status, let reason):
            let refusal = refusal(status, reason: reason, request: request)
            try await writer.respond(refusal.head, body: refusal.body)
            return .handled
        case .redirect(let location):
            let moved = redirect(to: location, request: request)
            try await writer.respond(moved.head, body: moved.body)
            return .handled
        case .directory(let directory, let path):
            defer { directory.close() }
            guard configuration.directoryListing else { return .passed }
            try await respondWithListing(of: directory, path: path, request: request, writer: writer)
            return .handled
        case .file(let file, let name, let encoding, let directPath):
            defer { file.close() }
            try await serve(
                file, name: name, encoding: encoding, encoder: negotiation.encoder, request: request, writer: writer)
            // The body is kept now: the next request for this path takes one `lstat`.
            if let directPath, let cache = bodyCache, cache.admits(file), cache.entry(of: file) != nil {
                cache.remember(
                    requestPath: request.path, negotiation: negotiation.mask, path: directPath, name: name,
                    encoding: encoding, file: file)
            }
            return .handled
        }
    }

    /// What a request names, found by the one decoder (``SafeRelativePath``) and the one resolver
    /// (``FileResolver``): shared by both halves of ``answer(to:)``.
    enum Location {
        /// Nothing here (the root exists): the next handler may answer.
        case passed
        /// An unsafe path (403) or a hidden file (404), answered here and never passed on; a
        /// refused symbolic link says why.
        case refused(HTTPResponse.Status, reason: LocalFileHandlerError? = nil)
        /// A directory asked for without its trailing slash, moved to this `Location` by a `301` or
        /// by a document that navigates there (``Configuration/directorySlashRedirect``).
        case redirect(to: String)
        /// A directory without an index file, open.
        case directory(FileDescriptorStat, SafeRelativePath)
        /// A regular file, open, with the name that decides its type, the precompressed
        /// encoding opened in its place, and the path of what was opened when it was found right at
        /// the request's decoded path under a fixed root (no index file, no fallback; a sibling's
        /// path when one was chosen).
        case file(FileDescriptorStat, name: String, encoding: PrecompressedEncoding?, directPath: String? = nil)
    }

    /// Decodes, checks and opens what `request` names; the caller closes what it gets.
    ///
    /// - Throws: ``LocalFileHandlerError/rootUnavailable(errno:)`` (or the root provider's error)
    ///   when nothing was found because the root itself is unavailable and
    ///   ``Configuration/unavailableRoot`` says to fail.
    func locate(_ request: SchemeRequest, negotiation: Negotiation) throws -> Location {
        guard request.method == .get || request.method == .head else { return .passed }
        let path: SafeRelativePath
        do {
            path = try SafeRelativePath(percentEncodedPath: request.path)
        } catch {
            // Too long a name cannot exist (nginx answers 404 too); anything else is an attack.
            return .refused(error.isLength ? .notFound : .forbidden)
        }
        if path.isHidden, configuration.hiddenFiles == .deny { return .refused(.notFound) }
        guard let baseRootPath = try resolveRootPath() else { return .passed }
        var rootPath = baseRootPath
        if configuration.usesHostSubdirectories {
            guard let host = try? SafeRelativePath(percentEncodedPath: "/" + request.host),
                host.components.count == 1, !host.isHidden
            else { return .passed }
            rootPath += "/" + host.components[0]
        }

        let encodings = acceptedEncodings(negotiation)
        let variants = encodings.isEmpty ? [] : encodings.map(\.fileSuffix)
        var resolution = resolver.resolve(rootPath: rootPath, components: path.components, variants: variants)
        // `/app.js/` names a directory, and a file is not one (nginx: 404): served, the page's
        // relative links would resolve under `/app.js/`.
        if path.hasTrailingSlash, case .file(let file, _, _, isIndex: false) = resolution {
            file.close()
            resolution = .notFound
        }
        var fellBack = false
        if case .notFound = resolution, configuration.singlePageFallback, isNavigation(request, path: path),
            let index = configuration.indexFileName
        {
            fellBack = true
            resolution = resolver.resolve(rootPath: rootPath, components: [index], variants: variants)
            if case .directory(let directory) = resolution {
                directory.close()
                resolution = .notFound
            }
        }

        if !fellBack, !path.hasTrailingSlash, !path.components.isEmpty {
            switch resolution {
            case .directory(let directory) where configuration.directoryListing:
                directory.close()
                return .redirect(to: Self.slashLocation(path, query: request.query))
            case .file(let file, _, _, isIndex: true):
                file.close()
                return .redirect(to: Self.slashLocation(path, query: request.query))
            default:
                break
            }
        }

        switch resolution {
        case .notFound:
            _ = try passUnlessRootIsUnavailable(baseRootPath)
            return .passed
        case .forbidden:
            return .refused(.forbidden)
        case .refusedLink:
            return .refused(.forbidden, reason: .symlinkRefused(policy: configuration.symlinks))
        case .directory(let directory):
            return .directory(directory, path)
        case .file(let file, let name, let variant, let isIndex):
            let encoding = variant.map { encodings[$0] }
            let direct =
                !configuration.usesHostSubdirectories && configuration.root.fixedPath != nil && !fellBack
                && !isIndex && path.components.last == name
            return .file(
                file, name: name, encoding: encoding,
                directPath: direct
                    ? rootPath + "/" + path.components.joined(separator: "/") + (encoding?.fileSuffix ?? "") : nil)
        }
    }

    /// The `Location` of a directory asked for without its trailing slash: its path rebuilt from
    /// the decoded components (so it is always one absolute path on this origin, never `//host`),
    /// with `/` appended and the query kept.
    static func slashLocation(_ path: SafeRelativePath, query: String?) -> String {
        var location = "/"
        for component in path.components {
            location += component.addingPercentEncoding(withAllowedCharacters: pathComponentAllowed) ?? component
            location += "/"
        }
        if let query { location += "?" + query }
        return location
    }

    /// What a path component keeps unencoded in a `Location`: RFC 3986's `pchar` less `/`.
    private static let pathComponentAllowed: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        return allowed
    }()

    /// Whether a request that matched nothing gets the single-page fallback: a navigation, by
    /// ``Configuration/navigationRule``.
    private func isNavigation(_ request: SchemeRequest, path: SafeRelativePath) -> Bool {
        switch configuration.navigationRule {
        case .byRequest:
            if let navigation = NavigationRequest.isNavigation(request.headerFields) { return navigation }
            return !path.hasExtension
        case .extensionless:
            return !path.hasExtension
        }
    }

    /// What a request accepts of this handler's codings, worked out once per request: the
    /// precompressed siblings it may get and the on-the-fly encoder, if any. Nothing for a request
    /// with `Range` (a range of compressed bytes is not what was asked for).
    struct Negotiation: Sendable {
        /// Bit `i` (i < 7): `precompressed[i]` is acceptable; bit 7: ``encoder`` is set.
        var mask: UInt8 = 0
        /// The first of ``Configuration/encoders`` the request accepts.
        var encoder: (any SchemeContentEncoder)?
    }

    /// The ``Negotiation`` for `request`.
    func negotiate(_ request: SchemeRequest) -> Negotiation {
        var negotiation = Negotiation()
        guard !configuration.precompressed.isEmpty || !configuration.encoders.isEmpty,
            let accept = request.headerFields[.acceptEncoding], request.headerFields[.range] == nil
        else { return negotiation }
        let accepted = AcceptEncoding(accept)
        for (index, encoding) in configuration.precompressed.prefix(7).enumerated()
        where accepted.allows(encoding.contentCoding) {
            negotiation.mask |= 1 << UInt8(index)
        }
        if let encoder = configuration.encoders.first(where: { accepted.allows($0.contentCoding) }) {
            negotiation.encoder = encoder
            negotiation.mask |= 0x80
        }
        return negotiation
    }

    /// The precompressed encodings `negotiation` accepts, in preference order.
    func acceptedEncodings(_ negotiation: Negotiation) -> [PrecompressedEncoding] {
        guard negotiation.mask & 0x7F != 0 else { return [] }
        return configuration.precompressed.prefix(7).enumerated().compactMap { index, encoding in
            negotiation.mask & (1 << UInt8(index)) != 0 ? encoding : nil
        }
    }

    /// A short plain-text refusal that reveals nothing about the file system: `Forbidden` or
    /// `Not Found`, followed by the reason's description when there is one (a refused link), which
    /// the head also carries as its ``SchemeResponse/refusalReason``.
    func refusal(_ status: HTTPResponse.Status, reason: LocalFileHandlerError? = nil, request: SchemeRequest)
        -> SchemeCollectedResponse
    {
        let word = status == .forbidden ? "Forbidden" : "Not Found"
        var (head, body) = SchemeResponse.plainText(status, reason.map { "\(word): \($0)\n" } ?? word + "\n")
        head.refusalReason = reason
        return SchemeCollectedResponse(head: head, body: request.method == .head ? Data() : body)
    }

    /// `301 Moved Permanently` to `location`, with a short plain-text body (none for HEAD).
    func redirect(to location: String, request: SchemeRequest) -> SchemeCollectedResponse {
        guard configuration.directorySlashRedirect else {
            return Self.slashDocument(to: location, request: request)
        }
        var (head, body) = SchemeResponse.plainText(.movedPermanently, "Moved Permanently\n")
        head.head.headerFields[.location] = location
        return SchemeCollectedResponse(head: head, body: request.method == .head ? Data() : body)
    }

    /// For an engine that follows no custom-scheme redirect (WebKitGTK, WKWebView): a `200` HTML
    /// document that replaces its own location with `location` (the fragment kept), by script and by
    /// `<meta http-equiv="refresh">`, so the page ends at the slash URL and its relative links
    /// resolve inside the directory, as after a web server's `301`.
    static func slashDocument(to location: String, request: SchemeRequest) -> SchemeCollectedResponse {
        let attribute = location.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        // A JavaScript string literal that cannot end the script element: `location` is already
        // percent-encoded except its query, whose quotes, backslashes and `<` are escaped here.
        var literal = "\""
        for scalar in location.unicodeScalars {
            switch scalar {
            case "\"", "\\", "<", ">", "\u{2028}", "\u{2029}":
                literal += String(format: "\\u%04x", scalar.value)
            default:
                literal.unicodeScalars.append(scalar)
            }
        }
        literal += "\""
        let html = """
            <!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=\(attribute)">\
            <title>Moved</title><script>location.replace(\(literal) + location.hash)</script>\
            <a href="\(attribute)">\(attribute)</a>

            """
        let body = Data(html.utf8)
        var head = SchemeResponse(
            status: .ok, mimeType: "text/html", textEncodingName: "utf-8", expectedContentLength: Int64(body.count))
        head.head.headerFields[.cacheControl] = "no-cache"
        return SchemeCollectedResponse(head: head, body: request.method == .head ? Data() : body)
    }
}
