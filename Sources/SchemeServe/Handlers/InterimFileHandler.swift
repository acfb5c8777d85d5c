import Foundation
import HTTPTypes
import SchemeKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// TEMPORARY: a minimal directory handler standing in for SchemeKit's `LocalFileHandler` (built
/// on the `files` branch) until it is merged; ``ServeHandlerFactories/interim`` uses it and
/// ``ServeHandlerFactories`` is where the real one plugs in.
///
/// It follows the same contract: safe resolution through ``ServePathResolver`` (403 for paths
/// that try to leave the root, pass for missing files so the chain can fall back), MIME types
/// from ``MIMEDetector``, `ETag`/`Last-Modified`, 304, single and multipart ranges with
/// amplification capped, 416, HEAD, and bounded chunked reads off the event loops.
struct InterimFileHandler: SchemeHandler {
    let resolver: ServePathResolver
    let spa: Bool
    let detector = MIMEDetector()
    /// The size of each read.
    static let chunkSize = 128 << 10

    var name: String { "files" }

    func handle(_ request: SchemeRequest, writer: some SchemeResponseWriter) async throws -> SchemeHandlerOutcome {
        var resolution = resolver.resolve(request.path)
        if resolution == .notFound, spa, isExtensionless(request.path) {
            resolution = resolver.resolve("/index.html", index: nil)
        }
        switch resolution {
        case .forbidden:
            try await writer.respond(.forbidden, body: Data("Forbidden\n".utf8))
            return .handled
        case .notFound, .directory:
            return .passed
        case .file(let path, let stamp):
            try await serve(path: path, stamp: stamp, request: request, writer: writer)
            return .handled
        }
    }

    private func isExtensionless(_ path: String) -> Bool {
        let last = path.split(separator: "/").last ?? ""
        return !last.contains(".")
    }

    private func serve(path: String, stamp: FileStamp, request: SchemeRequest, writer: some SchemeResponseWriter)
        async throws
    {
        let (mimeType, charset) = detector.contentType(forPath: path)
        let contentType = charset.map { "\(mimeType); charset=\($0)" } ?? mimeType
        let etag = stamp.entityTag
        let lastModified = HTTPDate.format(stamp.modified / 1_000_000_000)
        var fields = HTTPFields()
        fields[.contentType] = contentType
        fields[.eTag] = etag
        fields[.lastModified] = lastModified
        fields[.acceptRanges] = "bytes"
        fields[.cacheControl] = "no-cache"

        if isNotModified(request, etag: etag, modifiedSeconds: stamp.modified / 1_000_000_000) {
            fields[.contentType] = nil
            try await writer.writeHead(SchemeResponse(status: .notModified, headerFields: fields))
            try await writer.finish()
            return
        }

        let length = stamp.size
        var ranges = ByteRangeSet(header: request.headerFields[.range], length: length)
        if let ifRange = request.headerFields[.ifRange], ifRange != etag, ifRange != lastModified {
            ranges = .whole
        }
        let isHead = request.method == .head
        switch ranges {
        case .whole:
            fields[.contentLength] = String(length)
            try await writer.writeHead(SchemeResponse(status: .ok, headerFields: fields))
            if !isHead {
                try await copy(path: path, ranges: [0...(max(length, 1) - 1)], empty: length == 0, writer: writer)
            }
        case .unsatisfiable:
            var fields416 = HTTPFields()
            fields416[.contentRange] = "bytes */\(length)"
            fields416[.contentType] = "text/plain; charset=utf-8"
            let body = Data("Range Not Satisfiable\n".utf8)
            fields416[.contentLength] = String(body.count)
            try await writer.writeHead(SchemeResponse(status: .rangeNotSatisfiable, headerFields: fields416))
            if !isHead { try await writer.write(body) }
        case .ranges(let list) where list.count == 1:
            let range = list[0]
            fields[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(length)"
            fields[.contentLength] = String(range.upperBound - range.lowerBound + 1)
            try await writer.writeHead(SchemeResponse(status: .partialContent, headerFields: fields))
            if !isHead { try await copy(path: path, ranges: [range], empty: false, writer: writer) }
        case .ranges(let list):
            let boundary = "SchemeKit-\(String(UInt64.random(in: 1...UInt64.max), radix: 16))"
            let partHeads = list.map {
                Data(
                    "\r\n--\(boundary)\r\nContent-Type: \(contentType)\r\nContent-Range: bytes \($0.lowerBound)-\($0.upperBound)/\(length)\r\n\r\n"
                        .utf8)
            }
            let trailer = Data("\r\n--\(boundary)--\r\n".utf8)
            let total = zip(partHeads, list).reduce(Int64(trailer.count)) {
                $0 + Int64($1.0.count) + ($1.1.upperBound - $1.1.lowerBound + 1)
            }
            fields[.contentType] = "multipart/byteranges; boundary=\(boundary)"
            fields[.contentLength] = String(total)
            try await writer.writeHead(SchemeResponse(status: .partialContent, headerFields: fields))
            if !isHead {
                for (head, range) in zip(partHeads, list) {
                    try await writer.write(head)
                    try await copy(path: path, ranges: [range], empty: false, writer: writer)
                }
                try await writer.write(trailer)
            }
        }
        try await writer.finish()
    }

    private func isNotModified(_ request: SchemeRequest, etag: String, modifiedSeconds: Int64) -> Bool {
        if let ifNoneMatch = request.headerFields[.ifNoneMatch] {
            if ifNoneMatch.trimmingCharacters(in: .whitespaces) == "*" { return true }
            return ifNoneMatch.split(separator: ",").contains {
                var tag = $0.trimmingCharacters(in: .whitespaces)
                if tag.hasPrefix("W/") { tag.removeFirst(2) }
                return tag == etag
            }
        }
        if let since = request.headerFields[.ifModifiedSince].flatMap(HTTPDate.parse) {
            return modifiedSeconds <= since
        }
        return false
    }

    private func copy(path: String, ranges: [ClosedRange<Int64>], empty: Bool, writer: some SchemeResponseWriter)
        async throws
    {
        guard !empty else { return }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InterimFileError() }
        defer { close(descriptor) }
        for range in ranges {
            var offset = range.lowerBound
            while offset <= range.upperBound {
                try Task.checkCancellation()
                let count = Int(min(Int64(Self.chunkSize), range.upperBound - offset + 1))
                var chunk = Data(count: count)
                let read = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
                guard read > 0 else { throw InterimFileError() }
                if read < count { chunk.removeSubrange(read...) }
                try await writer.write(chunk)
                offset += Int64(read)
            }
        }
    }
}

/// A read failed mid-response (the file shrank or vanished); the message reveals no path.
struct InterimFileError: Error, CustomStringConvertible {
    var description: String { "file read failed" }
}
