import Foundation
import LoopbackTestSupport
import SchemeKit
import SchemeKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The test origin (`Tests/Fixtures/origin.py`) running on 127.0.0.1, shared by every test of the
/// process. It exits when our end of its stdin closes (this process ends) or after 10 minutes, so
/// it never outlives the tests; ``stop()`` ends it explicitly.
final class OriginServer: Sendable {
    /// Counters the origin keeps per path.
    struct Stats: Decodable, Sendable {
        var requests: Int
        var completed: Int
        var aborted: Int
        /// Responses waiting at a gate right now.
        var held: Int
        var hosts: [String]
        /// Requests answered with 206 from a `Range` (`ranges=1`); `nil` from an older origin.
        var ranged: Int?
    }

    let port: Int
    private let origin: OriginProcess
    private let client = URLSessionHTTPClient()

    private static let launched = Result { try OriginServer() }

    /// The shared origin, launched on first use.
    static func shared() throws -> OriginServer { try launched.get() }

    /// A new origin of its own, for a test that must tell its connections from every other test's
    /// (``stop()`` it before the test returns); other tests use ``shared()``.
    init() throws {
        origin = try OriginProcess(maxLifetime: 600)
        port = origin.port
    }

    /// Ends the origin.
    func stop() { origin.stop() }

    /// `http://127.0.0.1:PORT` + `pathAndQuery`.
    func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!
    }

    /// An upstream sending every scheme request to this origin over plain HTTP.
    func upstream(
        connectTimeout: Duration = .seconds(10),
        timeout: Duration = TestTiming.scaled(.seconds(30)),
        client: (any SchemeHTTPClient)? = nil
    ) -> NetworkUpstream {
        NetworkUpstream(
            client: client ?? URLSessionHTTPClient(),
            rewriter: NetworkRewriter(defaultRule: NetworkRewriteRule(scheme: "http", host: "127.0.0.1", port: port)),
            connectTimeout: connectTimeout,
            timeout: timeout
        )
    }

    /// The origin's counters for `path`.
    func stats(_ path: String) async throws -> Stats {
        let response = try await client.send(SchemeHTTPClientRequest(url: url("/__stats?path=\(path)")))
        var data = Data()
        for try await chunk in response.body { data.append(chunk) }
        return try JSONDecoder().decode(Stats.self, from: data)
    }

    /// Opens gate `id`: responses held by `wait=id` or `gate=id:N` continue (see origin.py).
    func release(_ id: String) async throws {
        let response = try await client.send(SchemeHTTPClientRequest(url: url("/__release?id=\(id)")))
        for try await _ in response.body {}
    }

    /// A name no other test uses, for a path (`/name-UUID`, so counters are per test) or a gate id.
    static func unique(_ name: String) -> String {
        "\(name)-\(UUID().uuidString)"
    }

    /// Polls the counters of `path` until `condition` holds (``eventually(timeout:_:)``: at most
    /// `timeout`, scaled under the thread sanitizer); returns the last counters seen.
    @discardableResult
    func waitForStats(
        _ path: String,
        timeout: Duration = .seconds(30),
        until condition: (Stats) -> Bool
    ) async throws -> Stats {
        var stats = try await self.stats(path)
        _ = try await eventually(timeout: timeout) {
            stats = try await self.stats(path)
            return condition(stats)
        }
        return stats
    }

    /// The deterministic body the origin sends for `size=` and `chunks=`.
    static func pattern(count: Int) -> Data {
        Data((0..<count).map { UInt8(($0 * 7 + 13) % 251) })
    }
}
