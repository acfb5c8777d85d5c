import Foundation
import SchemeKit
import Testing

struct NetworkRewriterTests {
    struct Case: Sendable, CustomStringConvertible {
        var input: String
        var url: String
        var hostHeader: String?
        var description: String { input }
    }

    static let rewriter: NetworkRewriter = {
        var rewriter = NetworkRewriter()
        rewriter.setRule(NetworkRewriteRule(scheme: "http", host: "127.0.0.1", port: 8080), scheme: "dev")
        rewriter.setRule(NetworkRewriteRule(connectAddress: "203.0.113.9"), host: "api.example.com")
        rewriter.setRule(NetworkRewriteRule(scheme: "http", port: 8081, connectAddress: "::1"), host: "v6.example.com")
        rewriter.setRule(NetworkRewriteRule(scheme: "https", host: "cdn.example.net"), scheme: "app", host: "cdn")
        return rewriter
    }()

    static let cases: [Case] = [
        Case(input: "app://example.com/a/b.js?x=1", url: "https://example.com/a/b.js?x=1"),
        Case(input: "APP://Example.COM/Index.html", url: "https://example.com/Index.html"),
        Case(input: "app://example.com", url: "https://example.com/"),
        Case(input: "dev://anything/p", url: "http://127.0.0.1:8080/p"),
        Case(input: "app://cdn/lib.js", url: "https://cdn.example.net/lib.js"),
        Case(input: "other://cdn/lib.js", url: "https://cdn/lib.js"),
        Case(input: "app://api.example.com/v1?q=2", url: "https://203.0.113.9/v1?q=2", hostHeader: "api.example.com"),
        Case(input: "app://v6.example.com/x", url: "http://[::1]:8081/x", hostHeader: "v6.example.com:8081"),
        Case(input: "https://example.com:443/a", url: "https://example.com/a"),
        Case(input: "http://example.com:8000/a", url: "http://example.com:8000/a"),
    ]

    @Test(arguments: cases)
    func rewritesPerSchemeAndHost(_ testCase: Case) throws {
        let target = try #require(Self.rewriter.target(for: URL(string: testCase.input)!))
        #expect(target.url.absoluteString == testCase.url)
        #expect(target.hostHeader == testCase.hostHeader)
    }

    @Test func ipDirectConnectionKeepsTheLogicalURL() throws {
        let target = try #require(Self.rewriter.target(for: URL(string: "app://api.example.com/v1")!))
        #expect(target.logicalURL.absoluteString == "https://api.example.com/v1")
    }

    @Test func aURLWithoutHostHasNoTarget() {
        #expect(Self.rewriter.target(for: URL(string: "app:///index.html")!) == nil)
    }
}
