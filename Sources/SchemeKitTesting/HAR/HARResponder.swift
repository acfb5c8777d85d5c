import Foundation
import SchemeKit

/// Writes one entry's response for one request: the recorded head (cleaned of what described the
/// recorded transfer), a range of the body when the request asks for one, the body in chunks.
struct HARResponder {
    let entry: HARReplayEntry
    let request: SchemeRequest
    let chunkSize: Int
    /// The origin the entry was matched on when it is not the request's own (a HAR a browser
    /// recorded at `http://127.0.0.1:8000/`): a `Location` there is replayed on the request's
    /// origin (``RedirectLocation``), where the page is.
    var recordedOrigin: URL? = nil

    /// Recorded fields that describe the recorded transfer, not the body replayed.
    static let droppedFields: Set<String> = [
        "content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive", "proxy-connection",
        "te", "trailer", "upgrade",
    ]

    func respond(to writer: some SchemeResponseWriter) async throws {
        if let reason = entry.failureReason {
            try await writer.fail(HARError(.recordedFailure, reason, entryIndex: entry.index))
            return
        }
        var fields = recordedFields()
        if let recordedOrigin, let location = fields[.location],
            let moved = RedirectLocation.moved(location, from: recordedOrigin, to: request.url)
        {
            fields[.location] = moved
        }
        let size = entry.body.count
        var status = entry.status
        var parts: [Range<Int>] = [0..<size]
        var multipart: MultipartByteRanges?
        if status == 200, request.method == .get || request.method == .head, let range = request.headerFields[.range],
            ifRangeHolds(fields)
        {
            switch RangeRequest.evaluate(range, size: Int64(size)) {
            case .whole:
                break
            case .partial(let ranges) where ranges.count == 1:
                status = 206
                fields[.contentRange] = ranges[0].contentRange(completeLength: Int64(size))
                parts = [Int(ranges[0].first)..<Int(ranges[0].last + 1)]
            case .partial(let ranges):
                status = 206
                let framing = MultipartByteRanges(
                    ranges: ranges, completeLength: Int64(size), contentType: fields[.contentType])
                fields[.contentType] = framing.contentTypeValue
                parts = ranges.map { Int($0.first)..<Int($0.last + 1) }
                multipart = framing
            case .unsatisfiable:
                var refusal = HTTPFields()
                refusal[.contentRange] = ByteRange.unsatisfiedContentRange(completeLength: Int64(size))
                refusal[.contentLength] = "0"
                try await writer.writeHead(SchemeResponse(status: .rangeNotSatisfiable, headerFields: refusal))
                try await writer.finish()
                return
            }
        }
        let bodyless = (100..<200).contains(status) || status == 204 || status == 304
        if !bodyless {
            let length = multipart?.contentLength ?? Int64(parts.reduce(0) { $0 + $1.count })
            fields[.contentLength] = String(length)
        }
        let head = SchemeResponse(
            status: status == entry.status
                ? HTTPResponse.Status(code: status, reasonPhrase: entry.statusText) : .partialContent,
            headerFields: fields)
        try await writer.writeHead(head)
        if !bodyless, request.method != .head {
            for (index, part) in parts.enumerated() {
                if let multipart { try await writer.write(Data(multipart.partHeader(at: index).utf8)) }
                try await writeBody(part, to: writer)
            }
            if let multipart { try await writer.write(Data(multipart.closingDelimiter.utf8)) }
        }
        try await writer.finish()
    }

    /// The recorded headers, in order, without ``droppedFields``, fields named in `Connection`,
    /// pseudo-headers and names that are not HTTP tokens; `Content-Type` from the content's
    /// `mimeType` when no header gives one.
    private func recordedFields() -> HTTPFields {
        var listed = Set<String>()
        for header in entry.responseHeaders where header.name.lowercased() == "connection" {
            for token in header.value.split(separator: ",") {
                listed.insert(token.trimmingCharacters(in: .whitespaces).lowercased())
            }
        }
        var fields = HTTPFields()
        for header in entry.responseHeaders {
            let lowered = header.name.lowercased()
            guard !Self.droppedFields.contains(lowered), !listed.contains(lowered),
                let name = HTTPField.Name(header.name)
            else { continue }
            fields.append(HTTPField(name: name, value: header.value))
        }
        if fields[.contentType] == nil, !entry.mimeType.isEmpty, entry.mimeType != "x-unknown" {
            fields[.contentType] = entry.mimeType
        }
        return fields
    }

    /// Whether the request's `If-Range`, if any, names the entry's version (its `ETag` or
    /// `Last-Modified`, compared as written); a range request whose `If-Range` does not is
    /// answered with the whole body.
    private func ifRangeHolds(_ fields: HTTPFields) -> Bool {
        guard let condition = request.headerFields[.ifRange] else { return true }
        return condition == fields[.eTag] || condition == fields[.lastModified]
    }

    /// Writes `range` of the body in chunks.
    private func writeBody(_ range: Range<Int>, to writer: some SchemeResponseWriter) async throws {
        switch entry.body {
        case .bytes(let data):
            var offset = range.lowerBound
            while offset < range.upperBound {
                try Task.checkCancellation()
                let end = min(offset + chunkSize, range.upperBound)
                try await writer.write(data.subdata(in: (data.startIndex + offset)..<(data.startIndex + end)))
                offset = end
            }
        case .file(let url, _):
            guard let handle = HARFileIO.openBodyFile(url) else {
                throw HARError(
                    .readFailed, "cannot open the body file \(url.lastPathComponent)", entryIndex: entry.index)
            }
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(range.lowerBound))
            var offset = range.lowerBound
            while offset < range.upperBound {
                try Task.checkCancellation()
                let wanted = min(chunkSize, range.upperBound - offset)
                guard let chunk = try handle.read(upToCount: wanted), !chunk.isEmpty else {
                    throw HARError(
                        .missingBodyFile, "the body file \(url.lastPathComponent) is shorter than recorded",
                        entryIndex: entry.index)
                }
                try await writer.write(chunk)
                offset += chunk.count
            }
        }
    }
}
