import Foundation
import LoopbackTestSupport
import SchemeKit
import SchemeKitTesting
import Testing

#if AsyncHTTPClient
    import SchemeKitAsyncHTTPClient
#endif

/// Each ``SchemeHTTPClient`` of ``NetworkTestClient`` against the real origin.
struct NetworkClientTests {
    @Test(arguments: NetworkTestClient.allCases)
    func returnsAtTheHeadAndStreamsTheBody(kind: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let client = kind.make()
        let path = "/" + OriginServer.unique("client-stream")
        let gate = OriginServer.unique("gate")
        // The origin sends the head and the first chunk, then holds the rest until released.
        let response = try await withTimeout {
            try await client.send(SchemeHTTPClientRequest(url: origin.url("\(path)?chunks=3&chunk=100&gate=\(gate):1")))
        }
        #expect(response.head.status == .ok)
        // The head is here while the origin is still holding the rest of the body.
        let stats = try await origin.stats(path)
        #expect(stats.completed == 0)
        #expect(stats.held == 1)
        try await origin.release(gate)
        let body = try await withTimeout {
            var data = Data()
            for try await chunk in response.body { data.append(chunk) }
            return data
        }
        #expect(body == OriginServer.pattern(count: 300))
        #expect(try await origin.waitForStats(path) { $0.completed == 1 }.completed == 1)
    }

    @Test(arguments: NetworkTestClient.allCases)
    func doesNotFollowRedirects(kind: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let elsewhere = "/" + OriginServer.unique("elsewhere")
        let response = try await withTimeout {
            try await kind.make().send(
                SchemeHTTPClientRequest(url: origin.url("/redirect?status=302&header=Location:\(elsewhere)&body=moved"))
            )
        }
        #expect(response.head.status.code == 302)
        #expect(response.head.headerFields[.location] == elsewhere)
        #expect(try await origin.stats(elsewhere).requests == 0)
    }

    @Test(arguments: NetworkTestClient.allCases)
    func connectTimeoutThrowsATimeout(kind: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let path = "/" + OriginServer.unique("client-slow")
        // The origin holds the head until the client gives up (it never releases the gate).
        let request = SchemeHTTPClientRequest(
            url: origin.url("\(path)?wait=\(OriginServer.unique("gate"))&body=late"), connectTimeout: .milliseconds(200)
        )
        await #expect(throws: SchemeHTTPClientError(.timeout, detail: "no response head within 0.2 seconds")) {
            _ = try await withTimeout { try await kind.make().send(request) }
        }
        // The client closed the connection when it gave up.
        #expect(try await origin.waitForStats(path) { $0.aborted == 1 }.aborted == 1)
    }

    @Test(arguments: NetworkTestClient.allCases)
    func overallTimeoutEndsTheBodyWithATimeout(kind: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let path = "/" + OriginServer.unique("client-overall")
        // The head and the first chunk come at once; the rest never does (the gate stays closed).
        let request = SchemeHTTPClientRequest(
            url: origin.url("\(path)?chunks=50&chunk=10&gate=\(OriginServer.unique("gate")):1"),
            timeout: TestTiming.scaled(.seconds(2))
        )
        let (status, error) = try await withTimeout { () -> (HTTPResponse.Status, SchemeHTTPClientError?) in
            let response = try await kind.make().send(request)
            do {
                for try await _ in response.body {}
                return (response.head.status, nil)
            } catch let error as SchemeHTTPClientError {
                return (response.head.status, error)
            }
        }
        #expect(status == .ok)
        #expect(error?.isTimeout == true, "\(String(describing: error))")
        #expect(try await origin.waitForStats(path) { $0.aborted == 1 }.completed == 0)
    }

    @Test(arguments: NetworkTestClient.allCases)
    func refusedConnectionThrowsConnectionFailed(kind: NetworkTestClient) async throws {
        let request = SchemeHTTPClientRequest(url: URL(string: "http://127.0.0.1:1/")!)
        let error = try await withTimeout { () -> SchemeHTTPClientError? in
            do {
                _ = try await kind.make().send(request)
                return nil
            } catch let error as SchemeHTTPClientError {
                return error
            }
        }
        #expect(error?.kind == .connectionFailed)
    }

    @Test(arguments: NetworkTestClient.allCases)
    func droppingTheBodyCancelsTheRequest(kind: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let client = kind.make()
        let path = "/" + OriginServer.unique("client-drop")
        // The origin holds the body after the first chunk; only the client can end the exchange.
        let url = origin.url("\(path)?chunks=200&chunk=1000&gate=\(OriginServer.unique("gate")):1")
        try await withTimeout {
            var response: SchemeHTTPClientResponse? = try await client.send(SchemeHTTPClientRequest(url: url))
            #expect(response?.head.status == .ok)
            response = nil
        }
        let stats = try await origin.waitForStats(path) { $0.aborted == 1 }
        #expect(stats.aborted == 1)
        #expect(stats.completed == 0)
    }

    @Test(arguments: NetworkTestClient.allCases)
    func cancellingTheConsumerCancelsTheRequest(kind: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let client = kind.make()
        let path = "/" + OriginServer.unique("client-cancel")
        let url = origin.url("\(path)?chunks=200&chunk=1000&gate=\(OriginServer.unique("gate")):1")
        let received = Counter()
        let consumer = Task {
            let response = try await client.send(SchemeHTTPClientRequest(url: url))
            for try await chunk in response.body {
                received.add(chunk.count)
            }
        }
        // The consumer is mid-body: it has the first chunk and waits for the held rest.
        #expect(await eventually { received.value == 1000 })
        consumer.cancel()
        let stats = try await origin.waitForStats(path) { $0.aborted == 1 }
        #expect(stats.aborted == 1)
        #expect(stats.completed == 0)
        _ = try? await withTimeout { try await consumer.value }
    }

    #if AsyncHTTPClient && os(Linux)
        /// Real back-pressure: while the consumer does not read, the origin cannot finish writing a
        /// body larger than the socket buffers; then the whole body comes from the one request the
        /// caller made, with no `Range` added (URLSession on Linux asks for windows instead).
        ///
        /// An origin of its own, so that the one connection to it is this test's: the kernel shows
        /// when the origin's end of it stalls on a zero window (Linux's `/proc/net/tcp`).
        @Test(.timeLimit(.minutes(1)))
        func asyncHTTPClientPausesTheOriginAndSendsOneRequest() async throws {
            let origin = try OriginServer()
            defer { origin.stop() }
            let path = "/" + OriginServer.unique("client-one-request")
            let size = 64 << 20
            let response = try await withTimeout {
                try await AsyncHTTPSchemeClient().send(
                    SchemeHTTPClientRequest(url: origin.url("\(path)?size=\(size)&ranges=1")))
            }
            #expect(response.head.status == .ok)
            #expect(response.head.headerFields[.contentLength] == String(size))
            var iterator = response.body.makeAsyncIterator()
            var received = try await iterator.next()?.count ?? 0
            // Paused: the client stopped reading the socket, so the origin stalls on a zero window
            // (or, were the client buffering the body, it would get to the end instead).
            #expect(
                await eventually {
                    if TCPSocketTable.serverIsStalled(port: origin.port) { return true }
                    return (try? await origin.stats(path).completed) == 1
                })
            // Still writing, far from the end.
            let paused = try await origin.stats(path)
            #expect(paused.completed == 0)
            #expect(paused.requests == 1)
            while let chunk = try await iterator.next() { received += chunk.count }
            #expect(received == size)
            let stats = try await origin.waitForStats(path) { $0.completed == 1 }
            #expect(stats.requests == 1)
            #expect(stats.ranged == 0)
        }
    #endif
}
