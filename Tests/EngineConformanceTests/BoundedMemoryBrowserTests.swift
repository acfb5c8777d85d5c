#if WebKitGTK || Chromium || Firefox
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import SchemeKitTesting
    import Testing

    /// What a body of any size costs this process on a browser's loopback origin: a handler writes
    /// ``size`` bytes (1 GiB, or `SCHEMEKIT_BROWSER_MEMORY_TEST_BYTES`) and keeps none, the page reads
    /// them all as they come (a stream reader that sums them, keeping none either), and the peak
    /// resident growth of this process stays within ``bound``: the writer waits while the socket
    /// lags, so memory does not grow with the body.
    ///
    /// Each engine runs in a process of its own (``IsolatedProcess``) unless `SCHEMEKIT_ISOLATED` is
    /// set (`Scripts/test.sh` runs the suite alone).
    @Suite(.serialized)
    struct BoundedMemoryBrowserTests {
        static let size =
            ProcessInfo.processInfo.environment["SCHEMEKIT_BROWSER_MEMORY_TEST_BYTES"].flatMap { Int($0) } ?? 1 << 30
        /// Peak resident growth allowed, whatever the size.
        static let bound = 64 << 20

        /// Every engine of the build in turn, in one isolated process.
        @Test(.timeLimit(.minutes(5)))
        func aGibibyteStreamsThroughWithBoundedMemory() async throws {
            guard try await IsolatedProcess.isInside(test: "aGibibyteStreamsThroughWithBoundedMemory") else { return }
            for engine in BrowserEngine.built { try await stream(on: engine) }
        }

        private func stream(on engine: BrowserEngine) async throws {
            let body = PatternHandler(size: Self.size)
            try await EngineSession.with(engine) { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(body, for: "app", pathPrefix: "/large")
            } _: { session in
                #expect(session.servesFromLoopback)
                try await session.open()
                let before = session.statistics().bytesAnswered
                let probe = MemoryProbe()
                let read = try await session.evaluate(
                    """
                    fetch('/large', {cache: 'no-store'}).then(async (response) => {
                      const reader = response.body.getReader();
                      let count = 0, checked = 0, wrong = 0;
                      for (;;) {
                        const {done, value} = await reader.read();
                        if (done) break;
                        // Every 4099th byte of the body, by its offset in the body: the pattern says what it is.
                        for (let i = (4099 - count % 4099) % 4099; i < value.length; i += 4099) {
                          checked++;
                          if (value[i] != (count + i) % 251) wrong++;
                        }
                        count += value.length;
                      }
                      return {count, checked, wrong};
                    })
                    """)
                let growth = probe.stop()
                #expect(read["count"] == .number(Double(Self.size)), "\(read)")
                #expect(read["checked"] == .number(Double((Self.size - 1) / 4099 + 1)), "\(read)")
                #expect(read["wrong"] == .number(0), "\(read)")
                #expect(session.statistics().bytesAnswered - before == Self.size)
                #expect(
                    growth <= Self.bound,
                    "peak RSS growth \(growth >> 20) MiB for a \(Self.size >> 20) MiB body (bound \(Self.bound >> 20) MiB)"
                )
                print("\(engine) loopback origin, \(Self.size >> 20) MiB: peak RSS growth \(growth >> 20) MiB")
            }
        }
    }

    /// Writes `size` bytes of a pattern (byte `i` is `i % 251`) in 64 KiB chunks, with its
    /// `Content-Length`; it keeps no body.
    final class PatternHandler: SchemeHandler {
        let size: Int
        var name: String { "pattern" }

        init(size: Int) {
            self.size = size
        }

        static let chunk = 64 << 10
        /// The tile every chunk is cut from: `tile[k..<k + n]` is the pattern from offset `k` (`k < 251`).
        static let tile = Data((0..<(chunk + 251)).map { UInt8($0 % 251) })

        func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
            try await writer.writeHead(
                SchemeResponse(status: .ok, mimeType: "application/octet-stream", expectedContentLength: Int64(size)))
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
