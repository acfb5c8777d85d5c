import Foundation
import SchemeKit

/// An entry of a HAR file prepared for replay: its request's parts for matching, its response
/// head and where its body is. Built once per entry when a HAR is loaded (or recorded), so
/// broken bodies are reported up front, with the entry named.
struct HARReplayEntry: Sendable {
    /// The entry's position in its file (moved on when an earlier-started entry is recorded).
    var index: Int
    let method: String
    let url: HARURLParts?
    /// The request's headers as `lowercased-name:value`, for counting the ones a request shares.
    let requestHeaderPairs: Set<String>
    /// The request's headers by lowercased name, values in order.
    let requestHeaders: [String: [String]]
    let requestBody: HARBodySource?
    /// The form recorded as `params` only (no text), decoded and sorted.
    let requestForm: [String]?
    let status: Int
    let statusText: String
    let responseHeaders: [HARNameValue]
    let mimeType: String
    let body: HARBodySource
    /// Why the recorded request failed, for a status below 100.
    let failureReason: String?

    /// Prepares `entry` (number `index` of its file) for replay; body files are looked up in
    /// `directory`.
    ///
    /// - Throws: ``HARError`` naming the entry: a body that does not decode, an unsafe or missing
    ///   body file, a status above 999.
    init(_ entry: HAREntry, index: Int, directory: URL?) throws(HARError) {
        do throws(HARError) {
            try self.init(entry, index, directory)
        } catch {
            throw error.located(entryIndex: index, entryURL: entry.request.url)
        }
    }

    private init(_ entry: HAREntry, _ index: Int, _ directory: URL?) throws(HARError) {
        self.index = index
        method = entry.request.method.uppercased()
        url = HARURLParts(entry.request.url)
        var pairs = Set<String>()
        var headers: [String: [String]] = [:]
        for header in entry.request.headers {
            let name = header.name.lowercased()
            pairs.insert("\(name):\(header.value)")
            headers[name, default: []].append(header.value)
        }
        requestHeaderPairs = pairs
        requestHeaders = headers
        if let postData = entry.request.postData {
            requestBody = try postData.source(directory: directory)
            requestForm =
                postData.text == nil && postData.file == nil && !postData.parameters.isEmpty
                ? postData.parameters.map { Self.decodeFormComponent("\($0.name)=\($0.value ?? "")") }.sorted() : nil
        } else {
            requestBody = nil
            requestForm = nil
        }
        guard entry.response.status <= 999 else {
            throw HARError(
                .invalidEntry, "status \(entry.response.status) is not an HTTP status", field: "response.status")
        }
        status = entry.response.status
        statusText = entry.response.statusText
        responseHeaders = entry.response.headers
        mimeType = entry.response.content.mimeType
        let content = entry.response.content
        body = try HARBodySource.resolve(
            text: content.text, encoding: content.encoding, file: content.file,
            expectedSize: content.file == nil ? nil : content.size, directory: directory, field: "response.content")
        failureReason =
            status < 100 ? (entry.response.custom["_error"]?.stringValue ?? "the recorded request failed") : nil
    }

    /// Whether this entry is a recorded network failure rather than a response.
    var isFailure: Bool { failureReason != nil }

    /// The values of request header `name` (lowercased), joined as one field value.
    func requestHeader(_ name: String) -> String? {
        requestHeaders[name]?.joined(separator: ", ")
    }

    /// `name=value` of a form, `+` read as a space, percent-decoded.
    static func decodeFormComponent(_ pair: String) -> String {
        let spaced = pair.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
