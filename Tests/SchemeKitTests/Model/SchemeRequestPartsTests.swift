import Foundation
import SchemeKit
import SchemeKitTesting
import Testing

/// `SchemeRequest(scheme:authority:path:)` and the fast parser behind every initialiser: the same
/// answers as Foundation's `URLComponents`, which is what `init(url:)` used before.
struct SchemeRequestPartsTests {
    struct Valid: Sendable, CustomTestStringConvertible {
        var scheme: String
        var authority: String
        var path: String
        var host: String
        var port: Int? = nil
        var expectedPath: String
        var query: String? = nil
        var testDescription: String { "\(scheme)://\(authority)\(path)" }
    }

    @Test(arguments: [
        Valid(
            scheme: "app", authority: "localhost", path: "/index.html", host: "localhost", expectedPath: "/index.html"),
        Valid(
            scheme: "APP", authority: "LocalHost", path: "/A.JS?V=1", host: "localhost", expectedPath: "/A.JS",
            query: "V=1"),
        Valid(scheme: "app", authority: "h:8080", path: "/x?", host: "h", port: 8080, expectedPath: "/x", query: ""),
        Valid(scheme: "app", authority: "h", path: "", host: "h", expectedPath: "/"),
        Valid(
            scheme: "app", authority: "h", path: "/a%20b/c%2Fd?q=%23", host: "h", expectedPath: "/a%20b/c%2Fd",
            query: "q=%23"),
        Valid(scheme: "app", authority: "", path: "/index.html", host: "", expectedPath: "/index.html"),
        Valid(scheme: "app", authority: "h", path: "/a b", host: "h", expectedPath: "/a%20b"),
        Valid(scheme: "app", authority: "h", path: "/ü?x=ü", host: "h", expectedPath: "/%C3%BC", query: "x=%C3%BC"),
        Valid(scheme: "app", authority: "[::1]:9", path: "/x", host: "[::1]", port: 9, expectedPath: "/x"),
    ])
    func partsBecomeARequest(_ valid: Valid) throws {
        var fields = HTTPFields()
        fields[.accept] = "*/*"
        let request = try SchemeRequest(
            scheme: valid.scheme, authority: valid.authority, path: valid.path, method: .head, headerFields: fields)
        #expect(request.scheme == valid.scheme.lowercased())
        #expect(request.host == valid.host)
        #expect(request.port == valid.port)
        #expect(request.path == valid.expectedPath)
        #expect(request.query == valid.query)
        #expect(request.method == .head)
        #expect(request.headerFields[.accept] == "*/*")
        #expect(request.head.scheme == request.scheme)
        #expect(request.head.path == valid.expectedPath + (valid.query.map { "?\($0)" } ?? ""))
        let url = request.url
        #expect(url.scheme?.lowercased() == request.scheme)
        #expect(url.path(percentEncoded: true) == request.path || (request.path == "/" && url.path().isEmpty))
    }

    @Test(arguments: [
        ("", "h", "/x", SchemeRequestError.missingScheme("://h/x")),
        ("app", "h", "x", .notHierarchical("app://hx")),
        ("app", "h", "?q", .notHierarchical("app://h?q")),
        ("app", "h", "/x#top", .fragmentNotAllowed("app://h/x#top")),
        ("app", "h/x", "/y", .malformedURL("app://h/x/y")),
        ("app", "h?q", "/y", .malformedURL("app://h?q/y")),
        ("app", "h#f", "/y", .malformedURL("app://h#f/y")),
        ("a:b", "h", "/y", .malformedURL("a:b://h/y")),
        ("1app", "h", "/y", .malformedURL("1app://h/y")),
        ("app", "h h", "/y", .malformedURL("app://h h/y")),
        ("app", "h:8a", "/y", .malformedURL("app://h:8a/y")),
    ])
    func invalidPartsGiveAClearError(scheme: String, authority: String, path: String, expected: SchemeRequestError) {
        #expect(throws: expected) { try SchemeRequest(scheme: scheme, authority: authority, path: path) }
    }

    /// Common and odd URLs: the fast parser must agree with `URLComponents` on every one, or hand
    /// it to `URLComponents`.
    static let urls = [
        "app://localhost/index.html", "APP://LocalHost/Index.HTML", "app://localhost", "app:///index.html",
        "app:/index.html", "app://h:8080/x?q=1&r=%20", "app://h/a%20b/c%2Fd.txt", "app://h/%2e%2e/secret",
        "app://h/a%23b", "my-app+v1.0://h/", "app:foo", "app:", "app:?q", "app://h/x#top", "app://h/x?y#z",
        "app://h/x#", "app:foo#x", "app://h:99999999999999999999/x", "app://h:99999/x", "app://h:65536/x",
        "app://h:0/x", "app://h:/x", "app://:8/x", "app://[::1]/x", "app://[::1]:8/x", "app://xn--tda.example/",
        "app://xn--zz.example/",
        "app://a.XN--tda.example/", "app://h/%", "app://h/%zz", "app://h/%4", "app://@/", "app://user:pw@h/x",
        "app://u@H/x", "app:////x", "a:/", "app://h/a?b?c", "app://h/;p=1", "app://h/.hidden", "app://h?q",
        "app://h/x?", "app://h%41/x", "app://h/a%2Fb", "APP://X:/p?q", "app:/x/y", "app:/", "app:///", "app://",
        "app://H.Example:80", "app://a!$&'()*+,;=b/x", "app://h/:@!$&'()*+,;=-._~?/:@", "app://h/a b",
        "app://h/a\"b<c>{d}|e^f`g\\h", "app://h/[x]", "app://h/?q=[x]", "app://h/x?q=%C3%BC",
        "app://h/../x", "app://h/./a/../b", "app://H:8/%7e", "app://h:00080/x", "app://1.2.3.4/x", "app://h/a//b",
    ]

    /// An IDNA host is the A-label as written (lowercased), as a browser has it, so that routes
    /// and rewrite rules registered for it match; a label that is not valid Punycode is a host too.
    @Test func anIDNAHostKeepsItsASCIIForm() async throws {
        #expect(try SchemeRequest("app://XN--bcher-kva.example/a.png").host == "xn--bcher-kva.example")
        #expect(
            try SchemeRequest(url: URL(string: "app://xn--bcher-kva.example/a.png")!).host == "xn--bcher-kva.example")
        #expect(try SchemeRequest("app://xn--zz.example/").host == "xn--zz.example")
        let registry = SchemeRegistry()
        try registry.register(StaticHandler("b", name: "idna"), for: "app", host: "xn--bcher-kva.example")
        try registry.register(StaticHandler("a", name: "any"), for: "app")
        let answer = try await registry.response(for: try SchemeRequest("app://xn--bcher-kva.example/a"))
        #expect(answer.answeredBy == "idna")
    }

    @Test(arguments: urls)
    func everyInitialiserAgreesWithURLComponents(_ string: String) throws {
        guard let url = URL(string: string) else {
            #expect(throws: SchemeRequestError.self) { try SchemeRequest(string) }
            return
        }
        let reference = Reference.parse(url)
        #expect(Reference.of { try SchemeRequest(url: url) } == reference)
        #expect(Reference.of { try SchemeRequest(string) } == reference)
        if case .success = reference {
            #expect(try SchemeRequest(url: url).url == url)
            #expect(try SchemeRequest(string).url.absoluteString == url.absoluteString)
        }
        // Split the same string into parts the way an HTTP engine has them.
        if let range = string.range(of: "://"), case .success = reference {
            let rest = string[range.upperBound...]
            let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            let scheme = String(string[..<range.lowerBound])
            let path = String(rest[slash...])
            guard path.isEmpty || path.hasPrefix("/") else { return }
            #expect(
                Reference.of { try SchemeRequest(scheme: scheme, authority: String(rest[..<slash]), path: path) }
                    == reference)
        }
    }

    /// What `SchemeRequest(url:)` computed with `URLComponents` before the fast parser existed.
    enum Reference: Equatable {
        case success(scheme: String, host: String, port: Int?, path: String, query: String?, head: String)
        case failure(SchemeRequestError)

        static func of(_ make: () throws -> SchemeRequest) -> Reference {
            do {
                let request = try make()
                return .success(
                    scheme: request.scheme, host: request.host, port: request.port, path: request.path,
                    query: request.query,
                    head: "\(request.head.scheme ?? "-") \(request.head.authority ?? "-") \(request.head.path ?? "-")")
            } catch let error as SchemeRequestError {
                return .failure(error)
            } catch {
                return .failure(.malformedURL("unexpected error: \(error)"))
            }
        }

        static func parse(_ url: URL) -> Reference {
            let string = url.absoluteString
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
                return .failure(.malformedURL(string))
            }
            guard let scheme = components.scheme, !scheme.isEmpty else { return .failure(.missingScheme(string)) }
            if components.fragment != nil || string.contains("#") { return .failure(.fragmentNotAllowed(string)) }
            let rawPath = components.percentEncodedPath
            guard string.dropFirst(scheme.count + 1).hasPrefix("//") || rawPath.hasPrefix("/") else {
                return .failure(.notHierarchical(string))
            }
            let host = (components.encodedHost ?? "").lowercased()
            let path = rawPath.isEmpty ? "/" : rawPath
            let query = components.percentEncodedQuery
            let authority = host + (components.port.map { ":\($0)" } ?? "")
            return .success(
                scheme: scheme.lowercased(), host: host, port: components.port, path: path, query: query,
                head: "\(scheme.lowercased()) \(authority) \(path)\(query.map { "?\($0)" } ?? "")")
        }
    }
}
