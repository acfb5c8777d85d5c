// Built only with the package trait `WebKitGTK` (it needs WebKitGTK 6.0's headers and libraries).
#if WebKitGTK
    import CWebKitGTK
    import Foundation
    import HTTPTypes
    import LoopbackTestSupport
    import SchemeKitWebKitGTK
    import Testing

    @testable import SchemeKit

    /// What a large request body costs this process (WebKit's UI process): a page's POST body of
    /// ``size`` bytes, read by a handler at 40 MiB/s, keeps the peak resident growth within
    /// ``bound``, and the handler gets every byte, in order.
    ///
    /// WebKit itself holds two copies of a body in this process for as long as the request lives
    /// (measured with WebKitGTK 2.50.6: 518 MiB of growth for a 256 MiB body that no handler
    /// reads at all), so the bound is those two copies and 64 MiB. What the adapter adds is the
    /// part this suite guards: it reads at most 256 KiB ahead of the handler
    /// (``RequestBodyReader``); a reader without that bound queues the body at IPC speed and adds
    /// most of a third copy (718 MiB with the read-ahead unbounded), which fails the test.
    ///
    /// The body is a typed array: a `Blob` body crashes WebKitGTK 2.50.6 inside
    /// `webkit_uri_scheme_request_get_http_body`, whatever its size. It is ``size`` bytes (256 MiB,
    /// or `SCHEMEKIT_WEBKIT_MEMORY_TEST_BYTES`), past the adapter's default 32 MiB limit: the test's
    /// adapter raises ``WebKitSchemeAdapter/maximumRequestBodySize`` to fit it. The test runs in a
    /// process of its own (``IsolatedProcess``) unless `SCHEMEKIT_ISOLATED` is set
    /// (`Scripts/test.sh` runs the suite alone under `xvfb-run`).
    @Suite(.serialized)
    struct BoundedMemoryWebKitGTKTests {
        static let size =
            ProcessInfo.processInfo.environment["SCHEMEKIT_WEBKIT_MEMORY_TEST_BYTES"].flatMap { Int($0) } ?? 256 << 20
        static let readRate = 40.0 * 1024 * 1024
        /// WebKit's own two copies of the body in this process and 64 MiB.
        static let bound = 2 * size + (64 << 20)

        /// A web context of its own whose adapter takes bodies of up to `size` bytes and serves
        /// `app://upload/`: `/page.html`, and `POST /upload`, read slowly and checked.
        static func uploadContext(
            _ handler: SlowUploadHandler, harness: WebKitHarness
        ) async throws -> (context: UInt, adapter: WebKitSchemeAdapter) {
            let registry = SchemeRegistry()
            try registry.register(handler, for: "app", host: "upload")
            let executor = harness.glib.executor
            return try await executor.run {
                let context = webkit_web_context_new()!
                let adapter = WebKitSchemeAdapter(
                    registry: registry, context: context, executor: executor, maximumRequestBodySize: Self.size,
                    mediaExtension: nil)
                return (UInt(bitPattern: context), adapter)
            }
        }

        @Test(.timeLimit(.minutes(3)))
        func aLargePOSTBodyReadSlowlyStaysWithinTheBound() async throws {
            guard try await IsolatedProcess.isInside(test: "aLargePOSTBodyReadSlowlyStaysWithinTheBound") else {
                return
            }
            let harness = try WebKitHarness.get()
            let handler = SlowUploadHandler(bytesPerSecond: Self.readRate)
            let (context, adapter) = try await Self.uploadContext(handler, harness: harness)
            // Made warm: it shows `/page.html` (its blank page) when this returns.
            try await tearingDown(
                try await WebViewSession.make(
                    executor: harness.glib.executor, blankURL: "app://upload/page.html",
                    context: OpaquePointer(bitPattern: context))
            ) { session in
                // The body is made in the page (its web process) before the probe starts.
                let made = try await session.callAsyncFunction(
                    """
                    const bytes = new Uint8Array(\(Self.size));
                    for (let i = 0; i < 251; i++) bytes[i] = i;
                    for (let filled = 251; filled < bytes.length; filled *= 2) bytes.copyWithin(filled, 0, filled);
                    window.uploadBody = bytes;
                    return bytes.length;
                    """)
                #expect(made == .number(Double(Self.size)))
                let probe = MemoryProbe()
                let result = try await withTimeLimit(.seconds(150), "posting the body") {
                    try await session.callAsyncFunction(
                        "return fetch('/upload', {method: 'POST', body: window.uploadBody}).then(r => r.text(), e => e.name);"
                    )
                }
                let growth = probe.stop()
                let read = handler.record.withLock { $0 }
                #expect(result == .string("\(Self.size) 0"), "the page got \(result)")
                #expect(read.bytes == Self.size, "the handler read \(read.bytes) of \(Self.size) bytes")
                #expect(read.mismatches == 0, "\(read.mismatches) chunks did not continue the pattern")
                #expect(read.failure == nil, "\(read.failure ?? "")")
                #expect(
                    growth <= Self.bound,
                    "peak RSS growth \(growth >> 20) MiB for a \(Self.size >> 20) MiB body (bound \(Self.bound >> 20) MiB)"
                )
                print(
                    "WebKitGTK POST body, \(Self.size >> 20) MiB read at 40 MiB/s: peak RSS growth \(growth >> 20) MiB "
                        + "(\(String(format: "%.2f", Double(growth) / Double(Self.size))) bodies)")
            }
            withExtendedLifetime(adapter) {}
        }
    }

    /// `app://upload/`: `/page.html`, and `POST /upload`, whose body is read at most
    /// `bytesPerSecond` and compared chunk by chunk with the page's pattern (byte `i` is `i % 251`);
    /// answered with `"<bytes> <mismatched chunks>"`. It keeps no body.
    final class SlowUploadHandler: SchemeHandler {
        struct Record: Sendable {
            var bytes = 0
            var mismatches = 0
            var failure: String?
        }

        let bytesPerSecond: Double
        let record = Locked(Record())
        /// The pattern from every phase: `tile[k..<k + n]` is the pattern from offset `k` (`k < 251`).
        private static let tile = Data((0..<(checkedPiece + 251)).map { UInt8($0 % 251) })
        private static let checkedPiece = 64 << 10
        var name: String { "upload" }
        var supportedMethods: Set<HTTPRequest.Method> { [.get, .head, .post] }

        init(bytesPerSecond: Double) {
            self.bytesPerSecond = bytesPerSecond
        }

        func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
            if request.path == "/page.html" {
                let html = "<!doctype html><title>upload</title>"
                try await writer.respond(.ok, mimeType: "text/html", body: Data(html.utf8))
                return .handled
            }
            guard case .stream(let chunks) = request.body.storage else {
                record.withLock { $0.failure = "the body was not a stream" }
                throw CocoaError(.fileReadUnknown)
            }
            let started = ContinuousClock.now
            var bytes = 0
            var mismatches = 0
            do {
                for try await chunk in chunks {
                    if !continuesPattern(chunk, at: bytes) { mismatches += 1 }
                    bytes += chunk.count
                    record.withLock { $0.bytes = bytes }
                    let ahead = .seconds(Double(bytes) / bytesPerSecond) - (ContinuousClock.now - started)
                    if ahead > .milliseconds(2) { try await Task.sleep(for: ahead) }  // the read rate: bytesPerSecond
                }
            } catch {
                record.withLock { $0.failure = "\(error)" }
                throw error
            }
            record.withLock { $0.mismatches = mismatches }
            try await writer.respond(.ok, mimeType: "text/plain", body: Data("\(bytes) \(mismatches)".utf8))
            return .handled
        }

        /// Whether `chunk`, starting at body offset `offset`, is the pattern there.
        private func continuesPattern(_ chunk: Data, at offset: Int) -> Bool {
            var checked = 0
            while checked < chunk.count {
                let count = min(Self.checkedPiece, chunk.count - checked)
                let phase = (offset + checked) % 251
                let same = chunk.withUnsafeBytes { body in
                    Self.tile.withUnsafeBytes { pattern in
                        memcmp(body.baseAddress! + checked, pattern.baseAddress! + phase, count) == 0
                    }
                }
                if !same { return false }
                checked += count
            }
            return true
        }
    }
#endif
