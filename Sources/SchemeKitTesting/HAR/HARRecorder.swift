public import Foundation
public import SchemeKit

/// Wraps any handler and records every exchange that passes through it into a HAR 1.2 file:
/// the request (head and body), the response head and body, and timings — fixtures from real
/// traffic, to replay offline with ``HARReplayHandler``.
///
/// ```swift
/// let recorder = HARRecorder(
///     NetworkFallbackHandler(allowedHosts: ["api.example.com"]), to: URL(fileURLWithPath: "Fixtures/api.har"))
/// try registry.register(recorder, for: "app")
/// // … run the app or the tests once against the real network, then replay the file.
/// ```
///
/// ## What is recorded
/// - **URLs.** The registry's request URL (`app://localhost/a.js`) by default;
///   ``HARRecordingOptions/url`` records the URL the engine's page used instead — `.origin(…)`
///   for a virtual origin such as headless Chromium's `https://app.localhost/` — or one a mapping
///   of yours gives, so that a tool matching the page's URLs, such as Playwright's
///   `route_from_har`, replays the file unchanged.
/// - **Complete exchanges only.** An exchange is written once the wrapped handler finished it:
///   a stopped, failed or passed one is not recorded (``skippedCount`` counts the first two), so
///   the file never holds a cut body.
/// - **Bodies.** Text (a textual `Content-Type` — `text/*`, JSON, JavaScript, XML, forms — and
///   valid UTF-8) is stored as `text`; anything else as base64 (`"encoding": "base64"`). A body
///   over ``HARRecordingOptions/maxInlineBodySize`` is streamed to a file beside the HAR file as it
///   arrives (memory stays flat) and named by content, `<fnv1a-64>-<size>.<ext>`, in `_file`, as
///   Playwright does; an existing file with that name is reused when its bytes are the same. Request
///   bodies follow the same rules (binary ones as base64 with `_encoding`, HAR 1.2 having no
///   encoding for them).
/// - **Decoded bodies.** HAR bodies carry no content coding, so the recorder removes
///   `Accept-Encoding` from the request it forwards (URLSession decodes anyway); a response that
///   still arrives with a `Content-Encoding` other than `identity` is delivered but not recorded.
/// - **Timings.** `wait` is the time to the response head, `receive` the body; `blocked`, `dns`,
///   `connect` and `ssl` are `-1` (not known to a handler).
///
/// ## Atomic writes
/// After each recorded exchange the whole HAR file is rewritten into a temporary file, flushed to
/// disk and renamed over the old one; body files are flushed and linked into place before the
/// HAR file that names them. A crash at any moment leaves a complete HAR file (without the
/// exchange in flight) and at worst an orphan `.tmp` file. The file is first written when the
/// first exchange completes (``write()`` writes it at once).
public struct HARRecorder<Wrapped: SchemeHandler>: SchemeForwardingHandler {
    /// The handler whose exchanges are recorded.
    public let wrapped: Wrapped
    /// The HAR file.
    package let fileURL: URL
    /// How bodies are written.
    package let options: HARRecordingOptions
    let store: HARStore

    /// Records into a new archive at `fileURL` (an existing file is replaced at the first write).
    ///
    /// - Parameters:
    ///   - wrapped: The handler whose exchanges are recorded.
    ///   - fileURL: The HAR file; its directory must exist and also receives body files.
    ///   - options: Inline body limit, request body limit, creator. Default: see ``HARRecordingOptions``.
    public init(_ wrapped: Wrapped, to fileURL: URL, options: HARRecordingOptions = HARRecordingOptions()) {
        self.init(
            wrapped, fileURL: fileURL, store: HARStore(emptyAt: fileURL, creator: options.creator), options: options)
    }

    /// Records after the entries already in `fileURL` (a new archive when there is no file).
    ///
    /// - Throws: ``HARError`` when the existing file cannot be read or is not a valid HAR.
    public init(_ wrapped: Wrapped, appendingTo fileURL: URL, options: HARRecordingOptions = HARRecordingOptions())
        throws(HARError)
    {
        let store = try HARStore.appending(to: fileURL, creator: options.creator)
        self.init(wrapped, fileURL: fileURL, store: store, options: options)
    }

    init(_ wrapped: Wrapped, fileURL: URL, store: HARStore, options: HARRecordingOptions) {
        self.wrapped = wrapped
        self.fileURL = fileURL
        self.store = store
        self.options = options
    }

    /// The archive as recorded so far.
    package var archive: HARArchive { store.archive }

    /// Exchanges recorded so far.
    public var recordedCount: Int { store.recorded }

    /// Exchanges not recorded: stopped, failed, content-encoded, or not written (see ``lastError``).
    public var skippedCount: Int { store.skipped }

    /// The last error met while writing the HAR file or a body file, if any. Recording errors never
    /// reach the engine: the exchange itself was delivered.
    public var lastError: HARError? { store.lastError }

    /// Writes the HAR file now, with what was recorded so far (an empty archive before the first
    /// exchange).
    ///
    /// - Throws: ``HARError/Kind/writeFailed``.
    public func write() throws(HARError) {
        try store.write()
    }

    /// A writing answer that writes the wrapped handler's answer, forwarding everything, and
    /// records the exchange once it completed. It throws what the wrapped handler throws, and
    /// `SchemeRequestBodyTooLarge` for a request body over ``HARRecordingOptions/maxRequestBodySize``.
    public func answer(to request: SchemeRequest) -> SchemeAnswer {
        .writing { writer in try await self.record(request, writer: writer) }
    }

    private func record(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws
        -> SchemeHandlerOutcome
    {
        let started = Date()
        let startedAt = ContinuousClock.now
        var forwarded = request
        var requestBody: Data?
        if !request.body.isEmpty {
            let body = try await request.body.collect(upTo: options.maxRequestBodySize)
            requestBody = body
            forwarded.body = .bytes(body)
        }
        forwarded.headerFields[.acceptEncoding] = nil

        let spool = HARBodySpool(directory: fileURL.deletingLastPathComponent(), limit: options.maxInlineBodySize)
        let recording = HARRecordingWriter(base: writer, spool: spool)
        let outcome: SchemeHandlerOutcome
        do {
            outcome = try await wrapped.answer(to: forwarded).perform(request: forwarded, with: recording)
        } catch {
            spool.discard()
            store.skip()
            throw error
        }
        guard outcome == .handled else {
            spool.discard()
            return outcome
        }
        guard let exchange = recording.completed(stopped: Task.isCancelled) else {
            spool.discard()
            store.skip()
            return outcome
        }
        if let coding = exchange.head.headerFields[.contentEncoding], coding.lowercased() != "identity" {
            spool.discard()
            store.skip()
            return outcome
        }
        do throws(HARError) {
            let entry = try HAREntryBuilder(request: request, requestBody: requestBody, options: options, store: store)
                .entry(
                    started: started, wait: exchange.headAt - startedAt, receive: exchange.endedAt - exchange.headAt,
                    response: exchange.head, body: exchange.spool)
            store.append(entry, started: started)
        } catch {
            store.skip(error)
        }
        return outcome
    }
}
