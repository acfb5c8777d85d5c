// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
    import Logging
    import LoopbackTestSupport
    import SchemeKit
    import SchemeKitTesting
    import SchemeServe
    import Testing

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A client that goes away stops the handler's task, before the head or mid-body, and the
    /// server keeps no request behind (`live` back to 0): no suspended response, no leak.
    @Suite(.ownThread, .timeLimit(.minutes(1)))
    struct ServeCancellationTests {
        /// The access log's lines, as the log's thread writes them.
        final class AccessLines: LogHandler, @unchecked Sendable {
            let lines = Locked<[String]>([])
            var logLevel: Logger.Level = .info
            var metadata: Logger.Metadata = [:]
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) { lines.withLock { $0.append(event.message.description) } }
        }

        @Test(arguments: [false, true])
        func aClientThatGoesAwayStopsTheTask(afterTheHead: Bool) async throws {
            let hanging = HangingHandler(writesHead: afterTheHead)
            try await TestServer.with(factories: ServeHandlerFactories(files: { _ in hanging })) { server in
                let port = server.port
                let fd = try await onThread {
                    let fd = try RawHTTP.connect(port: port)
                    try RawHTTP.sendAll(fd, Data("GET /never HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
                    return fd
                }
                #expect(await eventually { hanging.started == 1 })
                if afterTheHead {
                    // The head reached the client before it left.
                    let head = try await onThread {
                        var buffer = [UInt8](repeating: 0, count: 512)
                        let count = recv(fd, &buffer, buffer.count, 0)
                        return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
                    }
                    #expect(head.hasPrefix("HTTP/1.1 200"))
                }
                #expect(hanging.cancellations == 0)
                close(fd)
                #expect(
                    await eventually {
                        hanging.cancellations == 1 && hanging.returned == 1 && server.registry.metrics.live == 0
                    })
                #expect(hanging.cancellations == 1)
                #expect(hanging.returned == 1)
                #expect(server.registry.metrics.stopped == 1)
                #expect(server.registry.metrics.live == 0)
            }
        }

        /// A client that has the whole response (its declared length) and closes the connection
        /// before the handler says it finished has not gone away mid-response: the handler
        /// finishes (so a recorder wrapping it records the exchange), and the task is not stopped.
        @Test func aClientThatLeavesWithTheWholeResponseLetsTheHandlerFinish() async throws {
            let outcome = Locked<(finished: Bool?, returned: Bool)>((nil, false))
            let access = AccessLines()
            let handler = ClosureHandler(name: "slow-finish") { _, writer in
                defer { outcome.withLock { $0.returned = true } }
                var head = SchemeResponse(status: .ok, mimeType: "text/plain")
                head.headerFields[.contentLength] = "5"
                try await writer.writeHead(head)
                try await writer.write(Data("hello".utf8))
                // The origin's end of stream comes late: once the server has seen the client leave
                // with the whole response, which it logs then (the response has not ended otherwise).
                #expect(
                    await eventually { access.lines.withLock { $0 }.contains { $0.hasPrefix("GET /file 200 5B ") } },
                    "the server saw the client leave before the handler finished")
                do {
                    try await writer.finish()
                    outcome.withLock { $0.finished = true }
                } catch {
                    outcome.withLock { $0.finished = false }
                }
                return .handled
            }
            try await TestServer.with(
                factories: ServeHandlerFactories(files: { _ in handler }),
                accessLogger: Logger(label: "access") { _ in access }
            ) { server in
                let port = server.port
                let received = try await onThread {
                    let fd = try RawHTTP.connect(port: port)
                    defer { close(fd) }  // with the whole body, before the handler's finish
                    try RawHTTP.sendAll(fd, Data("GET /file HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
                    var received = Data()
                    var buffer = [UInt8](repeating: 0, count: 512)
                    while !String(decoding: received, as: UTF8.self).hasSuffix("\r\n\r\nhello") {
                        let count = recv(fd, &buffer, buffer.count, 0)
                        guard count > 0 else { break }
                        received.append(contentsOf: buffer[..<count])
                    }
                    return received
                }
                #expect(String(decoding: received, as: UTF8.self).hasSuffix("hello"))
                #expect(await eventually { outcome.withLock { $0.returned } && server.registry.metrics.live == 0 })
                #expect(outcome.withLock { $0.finished } == true)
                #expect(server.registry.metrics.finished == 1)
                #expect(server.registry.metrics.stopped == 0)
            }
            // One line, for the exchange the client left whole: not an abort.
            #expect(access.lines.withLock { $0 }.count == 1)
            #expect(access.lines.withLock { $0 }.first?.hasSuffix(" slow-finish") == true)
        }
    }
#endif
