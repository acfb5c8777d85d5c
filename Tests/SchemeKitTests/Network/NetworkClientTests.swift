import Foundation
import SchemeKit
import Testing

/// URLSessionHTTPClient against the real origin.
struct NetworkClientTests {
    @Test func returnsAtTheHeadAndStreamsTheBody() async throws {
        let origin = try OriginServer.shared()
        let client = URLSessionHTTPClient()
        let response = try await withTimeout {
            try await client.send(
                SchemeHTTPClientRequest(url: origin.url("/client-stream?chunks=3&chunk=100&interval=1500")))
        }
        #expect(response.head.status == .ok)
        // The head is here while the origin is still sending the body.
        #expect(try await origin.stats("/client-stream").completed == 0)
        let body = try await withTimeout {
            var data = Data()
            for try await chunk in response.body { data.append(chunk) }
            return data
        }
        #expect(body == OriginServer.pattern(count: 300))
    }

    @Test func doesNotFollowRedirects() async throws {
        let origin = try OriginServer.shared()
        let response = try await withTimeout {
            try await URLSessionHTTPClient().send(
                SchemeHTTPClientRequest(url: origin.url("/redirect?status=302&header=Location:/elsewhere&body=moved"))
            )
        }
        #expect(response.head.status.code == 302)
        #expect(response.head.headerFields[.location] == "/elsewhere")
        #expect(try await origin.stats("/elsewhere").requests == 0)
    }

    @Test func connectTimeoutThrowsATimeout() async throws {
        let origin = try OriginServer.shared()
        let request = SchemeHTTPClientRequest(
            url: origin.url("/client-slow?delay=3000"), connectTimeout: .milliseconds(200))
        await #expect(throws: SchemeHTTPClientError(.timeout, detail: "no response head within 0.2 seconds")) {
            _ = try await withTimeout { try await URLSessionHTTPClient().send(request) }
        }
    }

    @Test func overallTimeoutEndsTheBodyWithATimeout() async throws {
        let origin = try OriginServer.shared()
        let request = SchemeHTTPClientRequest(
            url: origin.url("/client-overall?chunks=50&chunk=10&interval=100"),
            timeout: .milliseconds(500)
        )
        let error = try await withTimeout { () -> SchemeHTTPClientError? in
            let response = try await URLSessionHTTPClient().send(request)
            do {
                for try await _ in response.body {}
                return nil
            } catch let error as SchemeHTTPClientError {
                return error
            }
        }
        #expect(error?.isTimeout == true, "\(String(describing: error))")
    }

    @Test func refusedConnectionThrowsConnectionFailed() async throws {
        let request = SchemeHTTPClientRequest(url: URL(string: "http://127.0.0.1:1/")!)
        let error = try await withTimeout { () -> SchemeHTTPClientError? in
            do {
                _ = try await URLSessionHTTPClient().send(request)
                return nil
            } catch let error as SchemeHTTPClientError {
                return error
            }
        }
        #expect(error?.kind == .connectionFailed)
    }

    @Test func droppingTheBodyCancelsTheRequest() async throws {
        let origin = try OriginServer.shared()
        let client = URLSessionHTTPClient()
        try await withTimeout {
            var response: SchemeHTTPClientResponse? = try await client.send(
                SchemeHTTPClientRequest(url: origin.url("/client-drop?chunks=200&chunk=1000&interval=50"))
            )
            #expect(response?.head.status == .ok)
            response = nil
        }
        let stats = try await origin.waitForStats("/client-drop") { $0.aborted == 1 }
        #expect(stats.aborted == 1)
    }

    @Test func cancellingTheConsumerCancelsTheRequest() async throws {
        let origin = try OriginServer.shared()
        let client = URLSessionHTTPClient()
        let consumer = Task {
            let response = try await client.send(
                SchemeHTTPClientRequest(url: origin.url("/client-cancel?chunks=200&chunk=1000&interval=50"))
            )
            for try await _ in response.body {}
        }
        try await origin.waitForStats("/client-cancel") { $0.requests == 1 }
        try await Task.sleep(for: .milliseconds(200))
        consumer.cancel()
        let stats = try await origin.waitForStats("/client-cancel") { $0.aborted == 1 }
        #expect(stats.aborted == 1)
        #expect(stats.completed == 0)
    }
}
