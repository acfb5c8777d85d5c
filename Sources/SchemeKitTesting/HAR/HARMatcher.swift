import Foundation
import SchemeKit

/// Chooses the entry that answers a request, by the rules documented on ``HARMatching``.
struct HARMatcher: Sendable {
    let matching: HARMatching
    /// The URL entries are matched against: the request's, moved to the origin of
    /// ``HARMatching/origin``, or (in update mode) the one the recorder would write.
    let requestURL: @Sendable (SchemeRequest) -> HARURLParts?

    /// The best entry for `request` (whose body, already collected, is `body`), or `nil`.
    func select(_ request: SchemeRequest, body: Data?, from entries: [HARReplayEntry]) -> HARReplayEntry? {
        guard let url = requestURL(request) else { return nil }
        let method = request.method.rawValue.uppercased()
        if let entry = best(request, method: method, url: url, body: body, entries) { return entry }
        if method == "HEAD" { return best(request, method: "GET", url: url, body: body, entries) }
        return nil
    }

    private func best(
        _ request: SchemeRequest, method: String, url: HARURLParts, body: Data?, _ entries: [HARReplayEntry]
    ) -> HARReplayEntry? {
        let fields = request.headerFields
        let range = request.method == .get || request.method == .head ? fields[.range] : nil
        let conditional = fields[.ifNoneMatch] != nil || fields[.ifModifiedSince] != nil
        var requestPairs = Set<String>()
        for field in fields { requestPairs.insert("\(field.name.canonicalName):\(field.value)") }
        let bodyType = fields[.contentType]

        var winner: (entry: HARReplayEntry, rank: [Int])?
        for entry in entries where entry.method == method {
            guard let entryURL = entry.url, entryURL.matches(url, matching) else { continue }
            if entry.status == 206, entry.requestHeader("range") != range { continue }
            if entry.status == 304, !conditional || !validatorMatches(fields[.ifNoneMatch], entry) { continue }
            guard headersMatch(fields, entry) else { continue }
            if matching.matchesRequestBody, let body, !body.isEmpty, !bodyMatches(body, type: bodyType, entry) {
                continue
            }
            let shared = entry.requestHeaderPairs.intersection(requestPairs).count
            let rank = [
                entry.isFailure ? 1 : 0,
                entryURL.scheme == url.scheme ? 0 : 1,
                range != nil && entry.status != 200 ? 1 : 0,
                // A revalidation whose tag the 304 names is answered by it, as the origin did.
                conditional && entry.status != 304 ? 1 : 0,
                -shared,
                entry.index,
            ]
            if winner == nil || rank.lexicographicallyPrecedes(winner!.rank) { winner = (entry, rank) }
        }
        return winner?.entry
    }

    /// Whether a 304 entry's validator is one the request names (RFC 9110 §13.1.2, weak
    /// comparison): the entry's `ETag`, or the `If-None-Match` it was recorded for. `true` when the
    /// request has no `If-None-Match` or the entry names no tag (a date-only revalidation).
    private func validatorMatches(_ ifNoneMatch: String?, _ entry: HARReplayEntry) -> Bool {
        guard let ifNoneMatch else { return true }
        let recorded =
            entry.responseHeaders.first { $0.name.lowercased() == "etag" }?.value
            ?? entry.requestHeader("if-none-match")
        guard let recorded else { return true }
        func tags(_ list: String) -> Set<String> {
            Set(
                list.split(separator: ",").map { tag in
                    let trimmed = tag.trimmingCharacters(in: .whitespaces)
                    return trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
                })
        }
        let requested = tags(ifNoneMatch)
        return requested.contains("*") || !requested.isDisjoint(with: tags(recorded))
    }

    /// Whether every header named in ``HARMatching/headers`` has the same value(s) in both.
    private func headersMatch(_ fields: HTTPFields, _ entry: HARReplayEntry) -> Bool {
        for name in matching.headers {
            let values = fields[values: name]
            let requestValue = values.isEmpty ? nil : values.joined(separator: ", ")
            if requestValue != entry.requestHeader(name.canonicalName) { return false }
        }
        return true
    }

    /// Whether the request's body equals the entry's: a side without a body does not disqualify;
    /// bytes equal; or the same multipart body with another boundary; or the same form.
    private func bodyMatches(_ body: Data, type: String?, _ entry: HARReplayEntry) -> Bool {
        guard let source = entry.requestBody, source.count > 0 else { return true }
        if let form = entry.requestForm {
            let pairs = String(decoding: body, as: UTF8.self).split(separator: "&").map {
                HARReplayEntry.decodeFormComponent(String($0))
            }
            return pairs.sorted() == form
        }
        guard let recorded = try? source.data() else { return false }
        if recorded == body { return true }
        guard let boundary = Self.boundary(type),
            let recordedBoundary = Self.boundary(entry.requestHeader("content-type"))
        else { return false }
        let text = String(decoding: body, as: UTF8.self).replacingOccurrences(of: boundary, with: "")
        let recordedText = String(decoding: recorded, as: UTF8.self).replacingOccurrences(
            of: recordedBoundary, with: "")
        return text == recordedText
    }

    /// The `boundary` parameter of a `multipart/…` content type.
    static func boundary(_ contentType: String?) -> String? {
        guard let contentType, let type = MediaType(rawValue: contentType), type.type == "multipart",
            let boundary = type[parameter: "boundary"], !boundary.isEmpty
        else { return nil }
        return boundary
    }
}
