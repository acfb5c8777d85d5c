#if Chromium
    import Crypto
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import SchemeKitChromium
    import SchemeKitTesting
    import Testing

    /// What a large fulfil costs this process: CDP has no streaming fulfil, so the adapter collects
    /// a response and sends it as one `Fetch.fulfillRequest`. A handler streams ``size`` bytes (it
    /// keeps none) to a page that reads them all and checks their SHA-256; the peak resident growth
    /// of this process (the page's copy is in Chromium's processes) stays within ``bound``.
    ///
    /// The adapter holds one copy of the body: the collected body, which the CBOR message shares
    /// as a piece of its own (`CDPCBOR.encodePieces`) instead of copying
    /// it (measured: 128 MiB for 128 MiB, 1.00 bodies; 256 MiB, 2.00 bodies, while the message
    /// was one buffer). The bound is one copy and 32 MiB: a second copy fails the test.
    ///
    /// The body is ``size`` bytes (128 MiB, or `SCHEMEKIT_CHROMIUM_MEMORY_TEST_BYTES`), past the
    /// default 32 MiB ``ChromiumAdapterConfiguration/maximumCBORBodySize``, which the test raises to
    /// fit it. The test runs in a process of its own (``IsolatedProcess``) unless
    /// `SCHEMEKIT_ISOLATED` is set (`Scripts/test.sh` runs the suite alone).
    @Suite(.serialized)
    struct BoundedMemoryChromiumTests {
        static let size =
            ProcessInfo.processInfo.environment["SCHEMEKIT_CHROMIUM_MEMORY_TEST_BYTES"].flatMap { Int($0) }
            ?? 128 << 20
        /// One copy of the body and 32 MiB: a second copy fails it.
        static let bound = size + (32 << 20)

        @Test(.timeLimit(.minutes(3)))
        func aLargeFulfilHoldsOneCopyOfTheBody() async throws {
            guard try await IsolatedProcess.isInside(test: "aLargeFulfilHoldsOneCopyOfTheBody") else {
                return
            }
            let body = PatternHandler(size: Self.size)
            try await ChromiumHarness.with(
                wireFormat: .cbor, configure: { $0.maximumCBORBodySize = Self.size }
            ) { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(body, for: "app", pathPrefix: "/large")
            } _: { harness in
                try await harness.openOrigin()
                let fulfilledBefore = harness.adapter.statistics.bytesAnswered
                let probe = MemoryProbe()
                let digest = try await harness.page.evaluate(
                    """
                    fetch('/large', {cache: 'no-store'}).then(r => r.arrayBuffer())
                      .then(b => crypto.subtle.digest('SHA-256', b))
                      .then(h => Array.from(new Uint8Array(h)).map(x => x.toString(16).padStart(2, '0')).join(''), e => e.name)
                    """)
                let growth = probe.stop()
                #expect(digest == .string(PatternHandler.digest(size: Self.size)))
                #expect(harness.adapter.statistics.bytesAnswered - fulfilledBefore == Self.size)
                #expect(
                    growth <= Self.bound,
                    "peak RSS growth \(growth >> 20) MiB for a \(Self.size >> 20) MiB body (bound \(Self.bound >> 20) MiB)"
                )
                print(
                    "Chromium fulfil, \(Self.size >> 20) MiB: peak RSS growth \(growth >> 20) MiB "
                        + "(\(String(format: "%.2f", Double(growth) / Double(Self.size))) bodies)")
            }
        }
    }

    /// Streams `size` bytes of a pattern (byte `i` is `i % 251`) in 64 KiB chunks, with its
    /// `Content-Length`; it keeps no body.
    final class PatternHandler: SchemeHandler {
        let size: Int
        var name: String { "pattern" }

        init(size: Int) {
            self.size = size
        }

        /// The tile every chunk is cut from: `tile[k..<k + n]` is the pattern from offset `k` (`k < 251`).
        static let chunk = 64 << 10
        static let tile = Data((0..<(chunk + 251)).map { UInt8($0 % 251) })

        /// The SHA-256 of the body, as lowercase hex.
        static func digest(size: Int) -> String {
            var hasher = SHA256()
            var offset = 0
            while offset < size {
                let count = min(chunk, size - offset)
                hasher.update(data: tile[(offset % 251)..<(offset % 251 + count)])
                offset += count
            }
            return hasher.finalize().map { String(format: "%02x", $0) }.joined()
        }

        func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
            try await writer.writeHead(
                SchemeResponse(
                    status: .ok, mimeType: "application/octet-stream", expectedContentLength: Int64(size)))
            var offset = 0
            while offset < size {
                let count = min(Self.chunk, size - offset)
                // A new buffer each time, as a handler reading a file would have.
                try await writer.write(Data(Self.tile[(offset % 251)..<(offset % 251 + count)]))
                offset += count
            }
            try await writer.finish()
            return .handled
        }
    }
#endif
