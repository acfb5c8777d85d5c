#if WebKitGTK || Chromium || Firefox
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
        /// The page loads from the listener, and a second local client (a process outside the
        /// engine's process tree) gets its connection closed before a byte: whether it asks for a
        /// tunnel, as Firefox and WebKitGTK do, or starts TLS, as Chromium does.
        @Test(arguments: BrowserEngine.built)
        func theEngineIsServedAndNoOtherLocalProcessIs(engine: BrowserEngine) async throws {
            try await EngineSession.with(engine) { registry in
                try registry.register(blankPage, for: "app")
            } _: { session in
                #expect(session.servesFromLoopback)
                try await session.open()
                #expect(try await session.evaluate("document.title") == .string("blank"))
                #expect(try await session.evaluate("isSecureContext") == .bool(true))
                #expect(session.statistics().answered == 1)
                let port = try #require(session.loopbackPort)
                let tunnel = "CONNECT app.localhost:443 HTTP/1.1\r\nHost: app.localhost:443\r\n\r\n"
                #expect(try await Self.bytesBeforeClose(port: port, sending: Data(tunnel.utf8)) == 0)
                // The first bytes of a TLS ClientHello.
                #expect(
                    try await Self.bytesBeforeClose(port: port, sending: Data([0x16, 0x03, 0x01, 0x02, 0x00, 0x01]))
                        == 0)
                // The page still loads: the refusals closed nothing of the engine's.
                try await session.open("/blank.html?again")
                #expect(try await session.evaluate("document.title") == .string("blank"))
            }
        }

        /// Connects to 127.0.0.1:`port` from a process outside this one's tree (python3, detached by
        /// a double fork, so not a child of ours: WebKitGTK's origin admits this process's own
        /// children, its network process among them), sends `bytes` and reads until the server
        /// closes the connection: how many bytes came back.
        static func bytesBeforeClose(port: Int, sending bytes: Data) async throws -> Int {
            let result = FileManager.default.temporaryDirectory.appendingPathComponent("client-\(UUID())")
            defer { try? FileManager.default.removeItem(at: result) }
            let script = """
                import os, socket, sys
                if os.fork(): os._exit(0)
                os.setsid()
                if os.fork(): os._exit(0)
                s = socket.create_connection(("127.0.0.1", \(port)))
                s.settimeout(30)
                s.sendall(bytes.fromhex("\(bytes.map { String(format: "%02x", $0) }.joined())"))
                total = 0
                try:
                    while True:
                        chunk = s.recv(4096)
                        if not chunk: break
                        total += len(chunk)
                except ConnectionResetError:
                    pass
                except socket.timeout:
                    total = -1
                with open("\(result.path).tmp", "w") as f: f.write(str(total))
                os.rename("\(result.path).tmp", "\(result.path)")
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", script]
            try process.run()
            process.waitUntilExit()
            let written = await eventually(timeout: .seconds(60)) {
                FileManager.default.fileExists(atPath: result.path)
            }
            try #require(written, "the client process reported nothing")
            let total = Int(try String(contentsOf: result, encoding: .utf8)) ?? -2
            if total == -1 { throw POSIXError(.ETIMEDOUT) }
            return total
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

#if WebKitGTK || Chromium || Firefox
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
