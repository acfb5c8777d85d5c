import Foundation
import SchemeKit
import SchemeKitTesting
import Testing

/// What the write-through stored, a per-host file handler ahead of the network in the same chain
/// serves next time, whatever origin (here one on another host and port) answered first.
struct NetworkWriteThroughChainTests {
    @Test(arguments: NetworkTestClient.allCases)
    func theSecondRequestIsAnsweredFromTheStoredFile(client base: NetworkTestClient) async throws {
        let origin = try OriginServer.shared()
        let directory = try TemporaryDirectory()
        let client = QueryAppendingClient(base: base.make(), query: "size=1000&type=text/javascript")
        let registry = SchemeRegistry()
        try registry.register(
            SchemeHandlerChain(
                LocalFileHandler(
                    configuration: .init(root: .directory(directory.url), usesHostSubdirectories: true)),
                NetworkFallbackHandler(
                    allowedHosts: [], upstream: origin.upstream(client: client),
                    configuration: .init(writeThrough: NetworkWriteThrough(directory: directory.url)))),
            for: "app")
        let url = "app://localhost/\(UUID().uuidString)/app.js"
        let first = try await registry.response(for: try SchemeRequest(url))
        #expect(first.answeredBy == "network")
        let second = try await registry.response(for: try SchemeRequest(url))
        #expect(second.answeredBy == "files")
        #expect(second.body == OriginServer.pattern(count: 1000))
    }
}
