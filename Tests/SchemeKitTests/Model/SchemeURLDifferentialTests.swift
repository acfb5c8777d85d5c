import Foundation
import Testing

@testable import SchemeKit

/// The fast URL parser against Foundation, as the fuzz target `Fuzz/Sources/FuzzURL` checks it:
/// what the fast parser accepts, Foundation accepts with the same parts; what it refuses, it
/// refuses on purpose with a typed error; reading ``SchemeRequest/url`` never traps.
struct SchemeURLDifferentialTests {
    static func parts(_ string: String) throws -> SchemeURLParts {
        guard case .parsed(let parts) = SchemeURLParts.parse(string) else {
            Issue.record("the fast parser did not accept \(string)")
            throw SchemeRequestError.malformedURL(string)
        }
        return parts
    }

    /// Issue 11: `url` hit `preconditionFailure` when `URL(string:)` refused a string the fast
    /// parser had accepted. Foundation is made to disagree here, as another Foundation may.
    @Test(arguments: [
        ("app://h:8/a%20b?q=1", "app://h:8/a%20b?q=1"),
        ("APP://H/x", "app://h/x"),
        ("app:/index.html", "app:/index.html"),
        ("app://h", "app://h/"),
        ("app:///x", "app:///x"),
    ])
    func urlIsRebuiltFromThePartsWhenFoundationRefusesTheString(string: String, rebuilt: String) throws {
        let parts = try Self.parts(string)
        var calls = 0
        let url = SchemeRequest.url(forAccepted: string, parts: parts) { text in
            calls += 1
            return calls == 1 ? nil : URL(string: text)  // refuse the engine's string, accept the rebuilt one
        }
        #expect(calls == 2)
        #expect(url.absoluteString == rebuilt)
        let reparsed = try SchemeRequest(url: url)
        #expect(reparsed.scheme == parts.scheme && reparsed.host == parts.host && reparsed.port == parts.port)
        #expect(reparsed.path == parts.path && reparsed.query == parts.query)
    }

    @Test func urlKeepsTheSchemeWhenFoundationRefusesEverything() throws {
        let parts = try Self.parts("app://h/x")
        let url = SchemeRequest.url(forAccepted: "app://h/x", parts: parts, parse: { _ in nil })
        #expect(url.scheme == "app")
    }

    @Test func urlIsFoundationsWhenFoundationAgrees() throws {
        let request = try SchemeRequest(scheme: "app", authority: "H:8080", path: "/a%20b?q")
        #expect(request.url == URL(string: "app://H:8080/a%20b?q"))
    }

    /// The deliberate disagreements (Fuzz/README.md): Foundation parses these, SchemeKit refuses
    /// them with a typed error, on every initialiser.
    @Test(arguments: [
        ("app://h/x#y", SchemeRequestError.fragmentNotAllowed("app://h/x#y")),
        ("app://h/x#", .fragmentNotAllowed("app://h/x#")),
        ("app:foo", .notHierarchical("app:foo")),
        ("app:", .notHierarchical("app:")),
        ("app:?q", .notHierarchical("app:?q")),
    ])
    func deliberateDisagreementsAreTypedErrors(string: String, expected: SchemeRequestError) throws {
        #expect(URLComponents(string: string) != nil)
        #expect(throws: expected) { try SchemeRequest(string) }
        let url = try #require(URL(string: string))
        #expect(throws: SchemeRequestError.self) { try SchemeRequest(url: url) }
    }

    /// Found by `FuzzURL` (Fuzz/crashes/FuzzURL-crash-99fabd…): `URLComponents` finds no host
    /// in one longer than 2048 bytes while `URL` still does. SchemeKit refuses such a URL rather
    /// than route it as if it had no host — on the fast path and on Foundation's.
    @Test(arguments: [
        "app://" + String(repeating: "a", count: 2049) + "/index.html",
        "app://" + String(repeating: "a.", count: 1025) + "/x",
        "app://" + String(repeating: "a", count: 2049) + "/%E2%82%AC?q=[",  // outside the fast subset
        "app://" + String(repeating: "a", count: 2049),
    ])
    func aHostFoundationDropsIsAMalformedURL(string: String) throws {
        #expect(URLComponents(string: string)?.percentEncodedHost == nil)
        let url = try #require(URL(string: string))
        for make in [{ try SchemeRequest(string) }, { try SchemeRequest(url: url) }] {
            let error = #expect(throws: SchemeRequestError.self) { _ = try make() }
            guard case .malformedURL = error else {
                Issue.record("expected malformedURL, got \(String(describing: error))")
                continue
            }
        }
    }

    @Test func aHostOf2048BytesIsKept() throws {
        let host = String(repeating: "a", count: 2048)
        let request = try SchemeRequest("app://\(host)/x")
        #expect(request.host == host)
        #expect(URLComponents(string: "app://\(host)/x")?.percentEncodedHost == host)
    }
}
