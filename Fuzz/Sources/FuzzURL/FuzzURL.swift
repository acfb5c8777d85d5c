import Foundation
import FuzzSupport

@testable import SchemeKit

/// Differential target: SchemeKit's single-pass URL parser (`SchemeURLParts`) against
/// Foundation's `URL` and `URLComponents`.
///
/// Properties, for any string:
/// - when the fast parser accepts it, Foundation accepts it too and finds the same scheme, host,
///   port, path and query (compared the way `SchemeRequest` reads `URLComponents`: the host as
///   written, `encodedHost`, so an IDNA label stays `xn--…`);
/// - when the fast parser rejects it, the reason holds for Foundation too (a `#`; no `//` and no
///   path starting with `/`; a host over 2048 bytes, which `URLComponents` drops) — these are
///   SchemeKit's deliberate refusals, listed in Fuzz/README.md;
/// - `SchemeRequest(string)` and `SchemeRequest(url:)` either throw `SchemeRequestError` or give a
///   request whose `url`, `path` and `pathExtension` can be read: never a trap.
@main
struct FuzzURL {
    static func main() {
        Fuzzer.run { buffer in
            check(String(decoding: buffer, as: UTF8.self))
        }
    }

    static func check(_ string: String) {
        switch SchemeURLParts.parse(string) {
        case .parsed(let parts):
            guard URL(string: string) != nil else {
                Fuzzer.fail("URL(string:) rejects what the fast parser accepted: \(string.debugDescription)")
            }
            guard let components = URLComponents(string: string) else {
                Fuzzer.fail("URLComponents rejects what the fast parser accepted: \(string.debugDescription)")
            }
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            require(components.scheme?.lowercased() == parts.scheme, "scheme differs: \(string.debugDescription)")
            require(
                (components.encodedHost ?? "").lowercased() == parts.host,
                "host differs: \(string.debugDescription) \(components.encodedHost ?? "nil") vs \(parts.host)")
            require(
                components.port == parts.port,
                "port differs: \(string.debugDescription) \(String(describing: components.port)) vs \(String(describing: parts.port))"
            )
            require(path == parts.path, "path differs: \(string.debugDescription) \(path) vs \(parts.path)")
            require(components.percentEncodedQuery == parts.query, "query differs: \(string.debugDescription)")
            require(components.fragment == nil, "fragment missed: \(string.debugDescription)")
        case .rejected(.fragmentNotAllowed):
            require(string.contains("#"), "fragment rejection without a #: \(string.debugDescription)")
        case .rejected(.notHierarchical):
            if let components = URLComponents(string: string) {
                require(
                    !components.percentEncodedPath.hasPrefix("/") && components.host == nil,
                    "hierarchical URL rejected as opaque: \(string.debugDescription)")
            }
        case .rejected(.malformedURL):
            let components = URLComponents(string: string)
            require(
                components == nil || components?.percentEncodedHost == nil,
                "host rejected that Foundation reads: \(string.debugDescription)")
        case .rejected(let error):
            Fuzzer.fail("unexpected fast-parser error \(error) for \(string.debugDescription)")
        case .unsupported:
            break
        }

        // The public API: a typed error or a usable request, never a trap.
        if let request = try? SchemeRequest(string) {
            readEverything(request)
        }
        if let url = URL(string: string), let request = try? SchemeRequest(url: url) {
            readEverything(request)
        }
    }

    static func readEverything(_ request: SchemeRequest) {
        _ = request.url.absoluteString
        _ = request.pathExtension
        require(request.path.hasPrefix("/"), "path does not start with /: \(request.path.debugDescription)")
        require(request.scheme == request.scheme.lowercased(), "scheme not lowercased")
        _ = try? SafeRelativePath(percentEncodedPath: request.path)
    }
}
