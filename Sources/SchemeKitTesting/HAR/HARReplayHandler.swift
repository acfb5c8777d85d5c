public import Foundation
public import SchemeKit

/// Answers requests from a HAR file: fixtures recorded once (with ``HARRecorder``, or exported
/// from a browser's network panel), replayed offline.
///
/// ```swift
/// let replay = try HARReplayHandler(contentsOf: URL(fileURLWithPath: "Fixtures/site.har"))
/// try registry.register(replay, for: "app")
/// ```
///
/// ## Matching
/// Method and URL (query order ignored, scheme ignored by default), the request body for POST
/// and other methods with a body, and chosen headers; when several entries match, the one whose
/// headers match best, then the first. See ``HARMatching`` for the exact rules. A HAR recorded by
/// a browser at another origin (`http://127.0.0.1:8000/`) replays under the app's scheme with
/// ``HARMatching/origin`` set to ``HARMatching/Origin/page``: requests are then matched by path
/// and query against the HAR's page origin.
///
/// Playwright's default archive, `.har.zip` (the HAR and its body files, zipped), must be unzipped
/// first: given one, the initializers throw ``HARError/Kind/zipArchive`` saying so in one line.
/// (`schemeserve --har` and `headless-render --har` unzip it themselves.)
///
/// ## Answers
/// - The recorded status, reason and headers (in order, duplicates such as `Set-Cookie` kept),
///   except what describes the recorded transfer rather than the body: `Content-Length` (set
///   from the body), `Content-Encoding` (HAR bodies are decoded), `Transfer-Encoding`,
///   hop-by-hop fields and HTTP/2 pseudo-headers (`:status`). A missing `Content-Type` is taken
///   from the content's `mimeType`.
/// - **Ranges** (`Range` on GET/HEAD) are answered from a recorded 200's full body with core's
///   `RangeRequest`: 206 with `Content-Range`, `multipart/byteranges` for several ranges, 416 with
///   `Content-Range: bytes */size` when none is satisfiable, 200 for a malformed header or an
///   `If-Range` that names another version (not the entry's `ETag` or `Last-Modified`).
/// - An entry recorded as a network failure (status below 100, Chromium's `_error`) fails the task.
/// - Bodies stream in chunks; a body file (`_file`) is read from disk, never held whole.
///
/// ## No match
/// ``Configuration/whenMissing`` decides: pass to the next handler, fail the task with
/// ``HARError/Kind/noMatchingEntry`` (the default, as Playwright's `notFound: 'abort'`), or
/// answer 404. In **update mode** (``init(updating:recordingFrom:options:configuration:)``) a
/// missing entry is fetched from an upstream handler, delivered, and recorded into the file, so the
/// next identical request replays it.
public struct HARReplayHandler: SchemeHandler {
    /// What to do with a request no entry matches.
    public enum MissingEntryPolicy: Sendable, Hashable {
        /// Pass: the next handler of a chain answers (or the registry's 404).
        case pass
        /// Fail the task with a ``HARError`` of kind ``HARError/Kind/noMatchingEntry``.
        case fail
        /// Answer `404 Not Found` with a short plain-text body naming the method and URL.
        case notFound
    }

    /// Options of a ``HARReplayHandler``.
    public struct Configuration: Sendable {
        /// How requests are matched to entries. Default: `init(ignoresScheme:ignoresQueryOrder:matchesRequestBody:headers:)`'s defaults.
        public var matching: HARMatching
        /// What to do when no entry matches (in update mode: when the upstream passes). Default: ``MissingEntryPolicy/fail``.
        public var whenMissing: MissingEntryPolicy
        /// The methods replayed. Default: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS.
        public var supportedMethods: Set<HTTPRequest.Method>
        /// The name in traces and access logs. Default: `"har"`.
        public var name: String
        /// The size of each body write. Default: 64 KiB.
        public var chunkSize: Int
        /// The largest request body read for matching. Default: 64 MiB.
        public var maxRequestBodySize: Int

        /// Creates options; the defaults are documented on each property.
        public init(
            matching: HARMatching = HARMatching(),
            whenMissing: MissingEntryPolicy = .fail,
            supportedMethods: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .patch, .delete, .options],
            name: String = "har",
            chunkSize: Int = 64 << 10,
            maxRequestBodySize: Int = 64 << 20
        ) {
            self.matching = matching
            self.whenMissing = whenMissing
            self.supportedMethods = supportedMethods
            self.name = name
            self.chunkSize = max(1, chunkSize)
            self.maxRequestBodySize = maxRequestBodySize
        }
    }

    /// The options.
    package let configuration: Configuration
    let store: HARStore
    /// In update mode, the upstream wrapped in a recorder writing into ``store``.
    let recorder: (any SchemeHandler)?
    /// In update mode, the URL that recorder writes for a request, which replay then matches.
    let recordedURL: HARRecordedURL?

    /// Replays the HAR file at `fileURL`; body files (`_file`) are read from its directory.
    ///
    /// - Throws: ``HARError`` when the file cannot be read, is not a valid HAR, or an entry's body
    ///   cannot be resolved (invalid base64, an unsafe or missing body file) — naming the entry.
    public init(contentsOf fileURL: URL, configuration: Configuration = Configuration()) throws(HARError) {
        let archive = try HARArchive(contentsOf: fileURL)
        self.init(
            store: try HARStore(archive: archive, directory: fileURL.deletingLastPathComponent()),
            recorder: nil, configuration: configuration)
    }

    /// Replays an archive already in memory; body files are read from `bodyDirectory`.
    ///
    /// - Throws: ``HARError`` naming an entry whose body cannot be resolved.
    package init(archive: HARArchive, bodyDirectory: URL? = nil, configuration: Configuration = Configuration())
        throws(HARError)
    {
        self.init(
            store: try HARStore(archive: archive, directory: bodyDirectory), recorder: nil,
            configuration: configuration)
    }

    /// Update mode: replays what `fileURL` has, and records what it lacks from `upstream`.
    ///
    /// A request no entry matches goes to `upstream` through a ``HARRecorder`` writing into the
    /// same file (appended, written atomically after each exchange): the engine gets the upstream's
    /// answer, and the next matching request is replayed. A missing file starts empty. Requests are
    /// matched under the URL the recorder writes for them (``HARRecordingOptions/url``), so what
    /// one records, the next finds; ``HARMatching/origin`` is then not used.
    ///
    /// - Throws: ``HARError`` when an existing file cannot be read or is not a valid HAR.
    public init(
        updating fileURL: URL,
        recordingFrom upstream: some SchemeHandler,
        options: HARRecordingOptions = HARRecordingOptions(),
        configuration: Configuration = Configuration()
    ) throws(HARError) {
        let store = try HARStore.appending(to: fileURL, creator: options.creator)
        self.init(
            store: store, recorder: HARRecorder(upstream, fileURL: fileURL, store: store, options: options),
            recordedURL: options.url, configuration: configuration)
    }

    init(
        store: HARStore, recorder: (any SchemeHandler)?, recordedURL: HARRecordedURL? = nil,
        configuration: Configuration
    ) {
        self.store = store
        self.recorder = recorder
        self.recordedURL = recordedURL
        self.configuration = configuration
    }

    /// ``Configuration/supportedMethods``.
    public var supportedMethods: Set<HTTPRequest.Method> { configuration.supportedMethods }

    /// ``Configuration/name``.
    public var name: String { configuration.name }

    /// The archive replayed (in update mode, with the entries recorded since).
    package var archive: HARArchive { store.archive }

    /// In update mode, the entries recorded so far; 0 otherwise.
    public var recordedCount: Int { store.recorded }

    /// The entry that would answer `request` (with `body` as its body), or `nil`: the matching
    /// rules of ``HARMatching``, without answering.
    package func entry(for request: SchemeRequest, body: Data? = nil) -> HAREntry? {
        guard let match = matcher().select(request, body: body, from: store.entries) else { return nil }
        return store.archive.entries[match.index]
    }

    /// The matcher for a request now: the configuration's rules, on the URL they name (in update
    /// mode, the URL the recorder writes).
    private func matcher() -> HARMatcher {
        let matching = configuration.matching
        if let recordedURL {
            return HARMatcher(matching: matching) { HARURLParts(recordedURL.url(for: $0)) }
        }
        let origin: HARURLParts?
        switch matching.origin {
        case .request: return HARMatcher(matching: matching) { HARURLParts($0.url.absoluteString) }
        case .page: origin = store.pageOrigin
        case .fixed(let url): origin = HARURLParts(url.absoluteString)
        }
        guard let origin else { return HARMatcher(matching: matching) { _ in nil } }  // no origin: nothing matches
        return HARMatcher(matching: matching) { HARURLParts($0.url.absoluteString)?.moved(to: origin) }
    }

    /// The origin entries are matched on for `request` when it is not the request's own (see
    /// ``matcher()``), or `nil`.
    private func recordedOrigin(for request: SchemeRequest) -> URL? {
        if let recordedURL { return HARURLParts(recordedURL.url(for: request))?.origin }
        switch configuration.matching.origin {
        case .request: return nil
        case .page: return store.pageOrigin?.origin
        case .fixed(let url): return url
        }
    }

    /// Answers from the matching entry, or applies ``Configuration/whenMissing`` (in update mode:
    /// records from the upstream).
    ///
    /// - Throws: `SchemeRequestBodyTooLarge` for a body over ``Configuration/maxRequestBodySize``;
    ///   `CancellationError` after a stop.
    public func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome
    {
        var request = request
        var body: Data?
        if !request.body.isEmpty {
            let collected = try await request.body.collect(upTo: configuration.maxRequestBodySize)
            body = collected
            request.body = .bytes(collected)
        }
        if let entry = matcher().select(request, body: body, from: store.entries) {
            try await HARResponder(
                entry: entry, request: request, chunkSize: configuration.chunkSize,
                recordedOrigin: recordedOrigin(for: request)
            ).respond(to: writer)
            return .handled
        }
        if let recorder, recorder.supportedMethods.contains(request.method),
            try await recorder.handle(request, writer: writer) == .handled
        {
            return .handled
        }
        switch configuration.whenMissing {
        case .pass:
            return .passed
        case .fail:
            try await writer.fail(
                HARError(.noMatchingEntry, "no entry for \(request.method.rawValue) \(request.url.absoluteString)"))
            return .handled
        case .notFound:
            let (head, message) = SchemeResponse.plainText(
                .notFound, "Not in the HAR file: \(request.method.rawValue) \(request.url.absoluteString)\n")
            try await writer.respond(head, body: request.method == .head ? Data() : message)
            return .handled
        }
    }
}
