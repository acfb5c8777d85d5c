#if Chromium || Firefox
    import Foundation
    import LoopbackTestSupport
    import SchemeKit
    import SchemeKitTesting
    import Testing

    #if canImport(Glibc)
        import Glibc
    #endif

    /// The browsers' loopback https origin (``BrowserTransport/automatic``): the page talks to what
    /// is, to the browser, a web server; bodies reach it as the handler writes them; ranges are
    /// answered as asked; and no process but the browser can read through the listener.
    @Suite(.serialized, .timeLimit(.minutes(3)))
    struct LoopbackOriginTests {
        /// The page loads from the listener, and a second local client (this test process, which is
        /// not the browser) gets its connection closed before a byte: whether it asks for a tunnel,
        /// as Firefox does, or starts TLS, as Chromium does.
        @Test(arguments: BrowserEngine.built)
        func theBrowserIsServedAndNoOtherLocalProcessIs(engine: BrowserEngine) async throws {
            try await EngineSession.with(engine) { registry in
                try registry.register(blankPage, for: "app")
            } _: { session in
                #expect(session.servesFromLoopback)
                try await session.open()
                #expect(try await session.evaluate("document.title") == .string("blank"))
                #expect(try await session.evaluate("isSecureContext") == .bool(true))
                #expect(session.statistics().answered >= 1)
                let port = try #require(session.loopbackPort)
                let tunnel = "CONNECT app.localhost:443 HTTP/1.1\r\nHost: app.localhost:443\r\n\r\n"
                #expect(try Self.bytesBeforeClose(port: port, sending: Data(tunnel.utf8)) == 0)
                // The first bytes of a TLS ClientHello.
                #expect(
                    try Self.bytesBeforeClose(port: port, sending: Data([0x16, 0x03, 0x01, 0x02, 0x00, 0x01])) == 0)
                // The page still loads: the refusals closed nothing of the browser's.
                try await session.open("/blank.html?again")
                #expect(try await session.evaluate("document.title") == .string("blank"))
            }
        }

        /// Connects to 127.0.0.1:`port` from this process, sends `bytes` and reads until the server
        /// closes the connection: how many bytes came back. Throws when the connection stays open
        /// for 30 s (a refusal closes it at once).
        static func bytesBeforeClose(port: Int, sending bytes: Data) throws -> Int {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
            defer { Glibc.close(descriptor) }
            var timeout = timeval(tv_sec: 30 * Int(TestTiming.scaled(.seconds(1)).components.seconds), tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
            _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var total = 0
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count > 0 {
                    total += count
                    continue
                }
                if count == 0 || errno == ECONNRESET { return total }
                if errno == EINTR { continue }
                throw POSIXError(.ETIMEDOUT)
            }
        }

        /// An event stream whose second event the handler holds back until the test has seen the
        /// first one in the page: the page can only see it if the body streams.
        @Test(arguments: BrowserEngine.built)
        func bodiesReachThePageAsTheHandlerWritesThem(engine: BrowserEngine) async throws {
            let gate = Gate()
            let events = ClosureHandler(name: "events") { _, writer in
                try await writer.writeHead(
                    SchemeResponse(
                        status: .ok, headerFields: [.cacheControl: "no-store"], mimeType: "text/event-stream"))
                try await writer.write(Data("data: one\n\n".utf8))
                await gate.wait()
                try await writer.write(Data("data: two\n\n".utf8))
                try await writer.finish()
                return .handled
            }
            try await EngineSession.with(engine) { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(events, for: "app", pathPrefix: "/events")
            } _: { session in
                try await session.open()
                _ = try await session.evaluate(
                    """
                    window.events = [];
                    const source = new EventSource('/events');
                    source.onmessage = (event) => {
                      window.events.push(event.data);
                      if (window.events.length == 2) source.close();
                    };
                    true
                    """)
                let first = await eventually { (try? await session.evaluate("window.events.join()")) == .string("one") }
                #expect(first, "the first event reached the page while the handler held the second")
                gate.open()
                #expect(
                    await eventually { (try? await session.evaluate("window.events.join()")) == .string("one,two") })
            }
        }

        /// `Range: bytes=1000-` on a 9 MiB file is answered whole from byte 1000 (a resumed
        /// download, a range reader): a 206 of every byte left, not a part of it.
        @Test(arguments: BrowserEngine.built)
        func anOpenEndedRangeIsAnsweredWhole(engine: BrowserEngine) async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("range-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let size = 9 << 20
            try Data((0..<size).map { UInt8($0 % 251) }).write(to: directory.appendingPathComponent("big.bin"))
            try Data("<!doctype html><title>blank</title>".utf8).write(
                to: directory.appendingPathComponent("blank.html"))
            try await EngineSession.with(engine) { registry in
                try registry.register(LocalFileHandler(root: directory), for: "app")
            } _: { session in
                try await session.open()
                let result = try await session.evaluate(
                    """
                    fetch('/big.bin', {headers: {Range: 'bytes=1000-'}, cache: 'no-store'}).then(async (r) => {
                      const body = new Uint8Array(await r.arrayBuffer());
                      let pattern = true;
                      for (let i = 0; i < body.length; i += 4093) if (body[i] != (1000 + i) % 251) pattern = false;
                      return {status: r.status, length: body.length, range: r.headers.get('content-range'), pattern};
                    })
                    """)
                #expect(result["status"] == .number(206), "\(result)")
                #expect(result["length"] == .number(Double(size - 1000)), "\(result)")
                #expect(result["range"] == .string("bytes 1000-\(size - 1)/\(size)"), "\(result)")
                #expect(result["pattern"] == .bool(true), "\(result)")
            }
        }
    }
#endif

#if Chromium || Firefox
    import Synchronization

    /// The handler is asked once per request (`SchemeHandler.answer(to:)`), whether its answer is
    /// known at once or written over time.
    @Suite(.serialized, .timeLimit(.minutes(3)))
    struct OneAnswerPerRequestTests {
        /// Counts `answer(to:)` calls; answers `/now` at once and `/later` over time.
        final class CountingAnswers: SchemeHandler {
            let asked = Mutex(0)

            func answer(to request: SchemeRequest) -> SchemeAnswer {
                asked.withLock { $0 += 1 }
                if request.path == "/now" { return .response(.text(.ok, "now", for: request)) }
                return .writing { writer in
                    try await writer.respond(.ok, body: Data("later".utf8))
                    return .handled
                }
            }
        }

        @Test(arguments: BrowserEngine.built)
        func eachRequestAsksTheHandlerOnce(engine: BrowserEngine) async throws {
            let handler = CountingAnswers()
            try await EngineSession.with(engine) { registry in
                try registry.register(blankPage, for: "app", pathPrefix: "/blank.html")
                try registry.register(handler, for: "app", pathPrefix: "/now")
                try registry.register(handler, for: "app", pathPrefix: "/later")
            } _: { session in
                try await session.open()
                for path in ["/now", "/later"] {
                    let before = handler.asked.withLock { $0 }
                    let text = try await session.evaluate("fetch('\(path)', {cache: 'no-store'}).then(r => r.text())")
                    #expect(text == .string(String(path.dropFirst())))
                    #expect(handler.asked.withLock { $0 } - before == 1, "\(path) asked the handler more than once")
                }
            }
        }
    }
#endif
