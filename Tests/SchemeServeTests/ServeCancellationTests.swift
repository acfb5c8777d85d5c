// Built with the package trait `Server` (on by default); without it the module is empty.
#if Server
    import Foundation
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
    @Suite(.timeLimit(.minutes(1)))
    struct ServeCancellationTests {
        @Test(arguments: [false, true])
        func aClientThatGoesAwayStopsTheTask(afterTheHead: Bool) async throws {
            let hanging = HangingHandler(writesHead: afterTheHead)
            try await TestServer.with(factories: ServeHandlerFactories(files: { _ in hanging })) { server in
                let fd = try RawHTTP.connect(port: server.port)
                try RawHTTP.sendAll(fd, Data("GET /never HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
                try await Self.waitUntil { hanging.started == 1 }
                if afterTheHead {
                    // The head reached the client before it left.
                    var buffer = [UInt8](repeating: 0, count: 512)
                    let count = recv(fd, &buffer, buffer.count, 0)
                    #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
                }
                #expect(hanging.cancellations == 0)
                close(fd)
                try await Self.waitUntil {
                    hanging.cancellations == 1 && hanging.returned == 1 && server.registry.metrics.live == 0
                }
                #expect(hanging.cancellations == 1)
                #expect(hanging.returned == 1)
                #expect(server.registry.metrics.stopped == 1)
                #expect(server.registry.metrics.live == 0)
            }
        }

        static func waitUntil(_ condition: @Sendable () -> Bool) async throws {
            for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        }
    }
#endif
