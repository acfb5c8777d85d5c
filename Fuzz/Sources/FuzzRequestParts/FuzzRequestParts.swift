import Foundation
import FuzzSupport
import HTTPTypes

@testable import SchemeKit

/// `SchemeRequest` built from HTTP parts the way `schemeserve` builds it
/// (`SchemeResponder`: the configured scheme, the app host, the request target, the method and
/// the header fields), then read the way the handler chain reads it.
///
/// Properties: the initialiser throws `SchemeRequestError` or succeeds, never traps; a request it
/// accepts has a readable `url`, a path starting with `/`, and the same parts as the request parsed
/// from the joined string `scheme://authority/path`.
@main
struct FuzzRequestParts {
    static let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .options, .patch, .connect, .trace]

    static func main() {
        Fuzzer.run { buffer in
            var input = FuzzInput(buffer)
            let scheme = input.string()
            let authority = input.string()
            let method = methods[Int(input.byte()) % methods.count]
            var fields = HTTPFields()
            let names: [HTTPField.Name] = [
                .range, .ifMatch, .ifNoneMatch, .ifModifiedSince, .ifRange, .accept, .cookie,
            ]
            for name in names where input.bool() {
                fields.append(HTTPField(name: name, value: input.string()))
            }
            let target = input.restString()
            check(scheme: scheme, authority: authority, target: target, method: method, fields: fields)
        }
    }

    static func check(scheme: String, authority: String, target: String, method: HTTPRequest.Method, fields: HTTPFields)
    {
        let request: SchemeRequest
        do {
            request = try SchemeRequest(
                scheme: scheme, authority: authority, path: target, method: method, headerFields: fields)
        } catch {
            return  // a typed SchemeRequestError: schemeserve answers 400
        }
        _ = request.url.absoluteString
        _ = request.pathExtension
        require(request.path.hasPrefix("/"), "path without /: \(request.path.debugDescription)")
        require(request.method == method, "method changed")
        if let joined = try? SchemeRequest("\(scheme)://\(authority)\(target)") {
            require(
                joined.scheme == request.scheme && joined.host == request.host && joined.port == request.port
                    && joined.path == request.path && joined.query == request.query,
                "parts and joined string differ: \(scheme) \(authority) \(target)")
        } else {
            Fuzzer.fail("parts accepted, joined string rejected: \(scheme) \(authority) \(target)")
        }
        // What the handler chain reads next.
        _ = try? SafeRelativePath(percentEncodedPath: request.path)
        let conditions = ConditionalRequest(request.headerFields)
        _ = conditions.evaluate(
            method: request.method, validators: .init(entityTag: EntityTag(opaqueTag: "x"), lastModified: 0))
        _ = RangeRequest.evaluate(request.headerFields[.range], size: 1000)
    }
}
