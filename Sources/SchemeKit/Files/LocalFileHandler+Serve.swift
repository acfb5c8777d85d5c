import Foundation
import HTTPTypes

extension LocalFileHandler {
    /// The most leading bytes the MIME sniffer looks at.
    static let sniffLength = 1445

    /// Answers GET or HEAD for an open regular file: validators, preconditions, ranges, body.
    ///
    /// `encoding` is set when `file` is a precompressed sibling of `name`.
    func serve(
        _ file: FileDescriptorStat, name: String, encoding: PrecompressedEncoding? = nil, request: SchemeRequest,
        writer: some SchemeResponseWriter
    ) async throws {
        let size = file.size
        var opaqueTag =
            String(UInt64(size), radix: 16) + "-" + String(UInt64(bitPattern: file.modifiedNanoseconds), radix: 16)
        if let encoding { opaqueTag += "-" + encoding.contentCoding }
        let entityTag = EntityTag(opaqueTag: opaqueTag)
        var fields = HTTPFields()
        fields.reserveCapacity(10)
        fields[.eTag] = entityTag.headerValue
        if let encoding {
            fields[.contentEncoding] = encoding.contentCoding
            fields[.vary] = "Accept-Encoding"
        }
        fields[.lastModified] = HTTPDate.format(secondsSince1970: file.modifiedSeconds)
        if let cacheControl = configuration.cacheControl { fields[.cacheControl] = cacheControl }

        var honourRange = true
        let conditions = ConditionalRequest(request.headerFields)
        if !conditions.isEmpty {
            let validators = ConditionalRequest.Validators(entityTag: entityTag, lastModified: file.modifiedSeconds)
            switch conditions.evaluate(method: request.method, validators: validators) {
            case .notModified:
                try await writer.writeHead(SchemeResponse(status: .notModified, headerFields: fields))
                try await writer.finish()
                return
            case .preconditionFailed:
                try await respondText(.preconditionFailed, "Precondition Failed\n", fields: fields, request, writer)
                return
            case .proceed(let honour):
                honourRange = honour
            }
        }
        fields[.acceptRanges] = "bytes"

        let decision: RangeRequest.Decision =
            request.method == .get && honourRange
            ? RangeRequest.evaluate(request.headerFields[.range], size: size, limits: configuration.rangeLimits)
            : .whole
        if decision == .unsatisfiable {
            fields[.contentRange] = ByteRange.unsatisfiedContentRange(completeLength: size)
            try await respondText(.rangeNotSatisfiable, "Range Not Satisfiable\n", fields: fields, request, writer)
            return
        }

        // Small files: one read (or a cache hit) serves both sniffing and the body. A compressed
        // sibling is never sniffed: its type is its original's.
        let needsSniffing = encoding == nil && detector.mimeType(forExtension: Self.pathExtension(of: name)) == nil
        let cache = bodyCache.flatMap { $0.admits(file) ? $0 : nil }
        let readsWhole = size <= Int64(configuration.chunkSize) || cache != nil
        var whole: SchemeBody?
        var leading: SchemeBody?
        if size > 0, readsWhole, needsSniffing || request.method == .get {
            if let cached = cache?.body(of: file) {
                whole = SchemeBody(cached)
            } else {
                let data = try await read(file, offset: 0, count: Int(size), into: writer)
                // Kept only when the file did not change while it was read, as a copy of its own:
                // the read went into the engine's memory, which the cache must not pin.
                if let cache, file.isUnchanged() { cache.store(data.data, of: file) }
                whole = data
            }
            leading = whole
        } else if size > 0, needsSniffing {
            leading = try await read(file, offset: 0, count: Int(min(size, Int64(Self.sniffLength))), into: writer)
        }
        let sniffed = leading.map { $0.prefix(Self.sniffLength).data }
        let (mimeType, charset) = detector.contentType(
            forPath: name, leadingBytes: needsSniffing ? sniffed ?? Data() : nil)

        switch decision {
        case .whole, .unsatisfiable:
            let head = SchemeResponse(
                status: .ok, headerFields: fields, mimeType: mimeType, textEncodingName: charset,
                expectedContentLength: size)
            try await writer.writeHead(head)
            if request.method == .get, size > 0 {
                try await writeBody(file, range: ByteRange(first: 0, last: size - 1), whole: whole, writer: writer)
            }
        case .partial(let ranges) where ranges.count == 1:
            let range = ranges[0]
            fields[.contentRange] = range.contentRange(completeLength: size)
            let head = SchemeResponse(
                status: .partialContent, headerFields: fields, mimeType: mimeType, textEncodingName: charset,
                expectedContentLength: range.count)
            try await writer.writeHead(head)
            try await writeBody(file, range: range, whole: whole, writer: writer)
        case .partial(let ranges):
            let multipart = MultipartByteRanges(
                ranges: ranges, completeLength: size,
                contentType: charset.map { "\(mimeType); charset=\($0)" } ?? mimeType)
            fields[.contentType] = multipart.contentTypeValue
            let head = SchemeResponse(
                status: .partialContent, headerFields: fields, mimeType: "multipart/byteranges",
                expectedContentLength: multipart.contentLength)
            try await writer.writeHead(head)
            for (index, range) in ranges.enumerated() {
                try await writer.write(Data(multipart.partHeader(at: index).utf8))
                try await writeBody(file, range: range, whole: whole, writer: writer)
            }
            try await writer.write(Data(multipart.closingDelimiter.utf8))
        }
        try await writer.finish()
    }

    /// Writes `range` of the file: from `whole` when the file is already in memory, else streamed
    /// in chunks of ``Configuration/chunkSize``, checking for cancellation before each read.
    private func writeBody(
        _ file: FileDescriptorStat, range: ByteRange, whole: SchemeBody?, writer: some SchemeResponseWriter
    )
        async throws
    {
        if let whole {
            if range.first == 0, range.count == Int64(whole.count) {
                try await writer.write(whole)
            } else {
                try await writer.write(whole.slice(Int(range.first)..<Int(range.last + 1)))
            }
            return
        }
        let chunkSize = Int64(configuration.chunkSize)
        var offset = range.first
        var remaining = range.count
        var chunks = 0
        while remaining > 0 {
            try Task.checkCancellation()
            let count = Int(min(chunkSize, remaining))
            let data = try await read(file, offset: offset, count: count, into: writer)
            try await writer.write(data)
            offset += Int64(count)
            remaining -= Int64(count)
            chunks += 1
            // Inline reads never suspend; let other tasks on this thread run now and then.
            if chunks % 16 == 0, case .inline = configuration.readMode { await Task.yield() }
        }
    }

    /// Reads exactly `count` bytes at `offset`, inline or on the configured queue, into memory
    /// from `writer` (the engine's, when it supplies its own).
    ///
    /// - Throws: ``LocalFileHandlerError`` on an I/O error or when the file ends early.
    func read(_ file: FileDescriptorStat, offset: Int64, count: Int, into writer: some SchemeResponseWriter)
        async throws -> SchemeBody
    {
        FileReadProbe.current?.read(bytes: count)
        let fd = file.fd
        @Sendable func readBody() -> Result<SchemeBody, POSIX.Errno> {
            guard count > 0 else { return .success(.empty) }
            return Result { () throws(POSIX.Errno) -> SchemeBody in
                try writer.makeBody(count: count) { (buffer) throws(POSIX.Errno) -> Int in
                    try POSIX.readFully(fd, into: buffer.baseAddress!, count: count, offset: offset).get()
                }
            }
        }
        let result: Result<SchemeBody, POSIX.Errno>
        switch configuration.readMode {
        case .inline:
            result = readBody()
        case .dispatch(let queue):
            result = await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: readBody()) }
            }
        }
        switch result {
        case .success(let data):
            guard data.count == count else { throw LocalFileHandlerError.fileChanged }
            return data
        case .failure(let error):
            throw LocalFileHandlerError.readFailed(errno: error.code)
        }
    }

    private func respondText(
        _ status: HTTPResponse.Status, _ message: String, fields: HTTPFields, _ request: SchemeRequest,
        _ writer: some SchemeResponseWriter
    ) async throws {
        let body = Data(message.utf8)
        let head = SchemeResponse(
            status: status, headerFields: fields, mimeType: "text/plain", textEncodingName: "utf-8",
            expectedContentLength: Int64(body.count))
        try await writer.writeHead(head)
        if request.method != .head { try await writer.write(body) }
        try await writer.finish()
    }

    /// The extension of a file name (after the last dot, when the dot is not the first character).
    static func pathExtension(of name: String) -> String {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.utf8.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }
}
