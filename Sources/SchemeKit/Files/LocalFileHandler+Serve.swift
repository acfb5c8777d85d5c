import Foundation
import HTTPTypes

extension LocalFileHandler {
    /// The most leading bytes the MIME sniffer looks at.
    static let sniffLength = 1445

    /// What a request for an open regular file gets, decided from its `fstat` and the request's
    /// header fields alone: validators, preconditions and the range decision (RFC 9110 §13.2.2
    /// order). Shared by the streaming path and the immediate one, so both answer alike.
    enum FileAnswer {
        /// 304, with the validators and `Cache-Control`.
        case notModified(HTTPFields)
        /// A short plain-text answer (412, 416) with these fields.
        case text(HTTPResponse.Status, String, HTTPFields)
        /// The representation, whole or in ranges, with the validators and `Accept-Ranges`.
        case content(HTTPFields, RangeRequest.Decision)
    }

    /// The validators and representation fields of `file`: `ETag`, `Last-Modified`,
    /// `Cache-Control`, and `Content-Encoding`/`Vary` for an encoded representation (`encoding`
    /// when `file` is a precompressed sibling, `onTheFly` when its bytes are encoded here).
    func representationFields(_ file: FileDescriptorStat, encoding: PrecompressedEncoding?, onTheFly: String?)
        -> (HTTPFields, EntityTag)
    {
        let size = file.size
        var opaqueTag =
            String(UInt64(size), radix: 16) + "-" + String(UInt64(bitPattern: file.modifiedNanoseconds), radix: 16)
        if let encoding { opaqueTag += "-" + encoding.contentCoding }
        // An on-the-fly coding is another representation of the same bytes: the file's tag, weak.
        let entityTag = EntityTag(opaqueTag: opaqueTag, isWeak: onTheFly != nil)
        var fields = HTTPFields()
        fields.reserveCapacity(10)
        fields[.eTag] = entityTag.headerValue
        if let coding = encoding?.contentCoding ?? onTheFly { fields[.contentEncoding] = coding }
        if !configuration.precompressed.isEmpty || !configuration.encoders.isEmpty {
            fields[.vary] = "Accept-Encoding"
        }
        fields[.lastModified] = HTTPDate.format(secondsSince1970: file.modifiedSeconds)
        if let cacheControl = configuration.cacheControl { fields[.cacheControl] = cacheControl }
        return (fields, entityTag)
    }

    /// Decides the answer for `file` (see ``FileAnswer``): `encoding` when `file` is a
    /// precompressed sibling, `onTheFly` when the body goes out in that coding, applied here
    /// (never in ranges: such a representation is sent without `Accept-Ranges`).
    func plan(
        _ file: FileDescriptorStat, encoding: PrecompressedEncoding?, onTheFly: String? = nil, request: SchemeRequest
    ) -> FileAnswer {
        let size = file.size
        var (fields, entityTag) = representationFields(file, encoding: encoding, onTheFly: onTheFly)
        var honourRange = true
        let conditions = ConditionalRequest(request.headerFields)
        if !conditions.isEmpty {
            // An on-the-fly coding is the file's bytes encoded: a precondition is about the file, so
            // `If-Match` with the file's strong tag holds for it too (as in nginx, which compares
            // before it compresses); `If-None-Match` compares weakly either way.
            let validators = ConditionalRequest.Validators(
                entityTag: EntityTag(opaqueTag: entityTag.opaqueTag, isWeak: false), lastModified: file.modifiedSeconds)
            switch conditions.evaluate(method: request.method, validators: validators) {
            case .notModified:
                return .notModified(fields)
            case .preconditionFailed:
                return .text(.preconditionFailed, "Precondition Failed\n", fields)
            case .proceed(let honour):
                honourRange = honour
            }
        }
        guard onTheFly == nil else { return .content(fields, .whole) }
        fields[.acceptRanges] = "bytes"

        let decision: RangeRequest.Decision =
            request.method == .get && honourRange
            ? RangeRequest.evaluate(request.headerFields[.range], size: size, limits: configuration.rangeLimits)
            : .whole
        if decision == .unsatisfiable {
            fields[.contentRange] = ByteRange.unsatisfiedContentRange(completeLength: size)
            return .text(.rangeNotSatisfiable, "Range Not Satisfiable\n", fields)
        }
        return .content(fields, decision)
    }

    /// Answers GET or HEAD for an open regular file: validators, preconditions, ranges, body.
    ///
    /// `encoding` is set when `file` is a precompressed sibling of `name`; `encoder` when the request
    /// accepts an on-the-fly coding (applied when the whole body is read and its type compressible).
    func serve(
        _ file: FileDescriptorStat, name: String, encoding: PrecompressedEncoding? = nil,
        encoder: (any SchemeContentEncoder)? = nil, request: SchemeRequest, writer: some SchemeResponseWriter
    ) async throws {
        let size = file.size
        // Small files: one read (or a cache hit) serves both sniffing and the body. A compressed
        // sibling is never sniffed: its type is its original's.
        let needsSniffing = self.needsSniffing(name, encoding: encoding)
        let cache = bodyCache.flatMap { $0.admits(file) ? $0 : nil }
        let readsWhole = size <= Int64(configuration.chunkSize) || cache != nil
        // An on-the-fly coding needs the whole body in memory; its type from the name, or sniffed.
        let encodes =
            encoder != nil && encoding == nil && readsWhole && size >= Int64(CompressibleContent.minimumSize)
            && request.headerFields[.range] == nil
        var whole: SchemeBody?
        if size > 0, readsWhole, needsSniffing || request.method == .get || encodes {
            whole = try await wholeBody(of: file, cache: cache, writer: writer)
        }
        var leading = whole
        if leading == nil, size > 0, needsSniffing {
            leading = try await read(file, offset: 0, count: Int(min(size, Int64(Self.sniffLength))), into: writer)
        }
        let sniffed = leading.map { $0.prefix(Self.sniffLength).data }
        let (mimeType, charset) = detector.contentType(
            forPath: name, leadingBytes: needsSniffing ? sniffed ?? Data() : nil)
        if encodes, let encoder, let whole, CompressibleContent.isCompressible(mimeType),
            let variant = encodedVariant(
                of: file, body: whole.data, coding: encoder, mimeType: mimeType, charset: charset, cache: cache)
        {
            return try await serve(variant, of: file, coding: encoder.contentCoding, request: request, writer: writer)
        }

        let fields: HTTPFields
        let decision: RangeRequest.Decision
        switch plan(file, encoding: encoding, request: request) {
        case .notModified(let fields):
            try await writer.writeHead(SchemeResponse(status: .notModified, headerFields: fields))
            try await writer.finish()
            return
        case .text(let status, let message, let fields):
            let answer = Self.text(status, message, fields: fields, request: request)
            try await writer.respond(answer.head, body: answer.body)
            return
        case .content(let planned, let planDecision):
            fields = planned
            decision = planDecision
        }
        let (head, multipart) = Self.contentHead(
            fields: fields, decision: decision, size: size, mimeType: mimeType, charset: charset)
        try await writer.writeHead(head)
        guard request.method == .get, size > 0 else {
            try await writer.finish()
            return
        }
        // Bodies that are not in memory go to an engine that takes file regions as one region per
        // range (sendfile, no copy through user space); else they stream in chunks.
        let region = whole == nil && writer.acceptsFileRegions ? try SchemeFileHandle(duplicating: file.fd) : nil
        switch decision {
        case .whole, .unsatisfiable:
            try await writeBody(file, range: ByteRange(first: 0, last: size - 1), whole: whole, region: region, writer)
        case .partial(let ranges):
            guard let multipart else {
                try await writeBody(file, range: ranges[0], whole: whole, region: region, writer)
                break
            }
            for (index, range) in ranges.enumerated() {
                try await writer.write(Data(multipart.partHeader(at: index).utf8))
                try await writeBody(file, range: range, whole: whole, region: region, writer)
            }
            try await writer.write(Data(multipart.closingDelimiter.utf8))
        }
        try await writer.finish()
    }

    /// The whole body of `file`: from the body cache, or read (and then kept, when the cache admits
    /// it and the file did not change while it was read).
    private func wholeBody(of file: FileDescriptorStat, cache: FileBodyCache?, writer: some SchemeResponseWriter)
        async throws -> SchemeBody
    {
        if let cached = cache?.body(of: file) { return SchemeBody(cached) }
        let data = try await read(file, offset: 0, count: Int(file.size), into: writer)
        // Kept as a copy of its own: the read went into the engine's memory, which the cache must not pin.
        if let cache, file.isUnchanged() { cache.store(data.data, of: file) }
        return data
    }

    /// The body of `file` in `coding` and its `200` head: the one kept in the body cache, or made
    /// now (and kept, when the cache holds the file). `nil` when the encoder fails.
    func encodedVariant(
        of file: FileDescriptorStat, body: Data, coding encoder: any SchemeContentEncoder, mimeType: String,
        charset: String?, cache: FileBodyCache?
    ) -> FileBodyCache.Variant? {
        if let variant = cache?.entry(of: file)?.variants[encoder.contentCoding] { return variant }
        guard let encoded = try? encoder.encode(body) else { return nil }
        let (fields, _) = representationFields(file, encoding: nil, onTheFly: encoder.contentCoding)
        let (head, _) = Self.contentHead(
            fields: fields, decision: .whole, size: Int64(encoded.count), mimeType: mimeType, charset: charset)
        let variant = FileBodyCache.Variant(
            body: encoded, head: FileBodyCache.Head(name: "", contentCoding: encoder.contentCoding, response: head))
        cache?.store(variant, coding: encoder.contentCoding, of: file)
        return variant
    }

    /// Answers with an encoded variant: its `200` head, or 304/412 by its (weak) validator.
    private func serve(
        _ variant: FileBodyCache.Variant, of file: FileDescriptorStat, coding: String, request: SchemeRequest,
        writer: some SchemeResponseWriter
    ) async throws {
        let answer = variantAnswer(variant, of: file, coding: coding, request: request)
        try await writer.respond(answer.head, body: answer.body)
    }

    /// What an encoded variant answers `request` (no `Range`: negotiation excludes it).
    func variantAnswer(
        _ variant: FileBodyCache.Variant, of file: FileDescriptorStat, coding: String, request: SchemeRequest
    ) -> SchemeCollectedResponse {
        if !ConditionalRequest(request.headerFields).isEmpty {
            switch plan(file, encoding: nil, onTheFly: coding, request: request) {
            case .notModified(let fields):
                return SchemeCollectedResponse(
                    head: SchemeResponse(status: .notModified, headerFields: fields), body: Data())
            case .text(let status, let message, let fields):
                return Self.text(status, message, fields: fields, request: request)
            case .content:
                break
            }
        }
        var answer = SchemeCollectedResponse(
            head: variant.head.response, body: request.method == .head ? Data() : variant.body)
        answer.representationID = request.method == .head ? nil : variant.head.id
        return answer
    }

    /// Whether the type of `name` comes from sniffing its bytes (no known extension; never for a
    /// precompressed sibling, whose type is its original's).
    func needsSniffing(_ name: String, encoding: PrecompressedEncoding?) -> Bool {
        encoding == nil && detector.mimeType(forExtension: Self.pathExtension(of: name)) == nil
    }

    /// The head for ``FileAnswer/content(_:_:)``: 200 for the whole file, 206 with `Content-Range`
    /// for one range, 206 `multipart/byteranges` (and its framing) for several.
    static func contentHead(
        fields: HTTPFields, decision: RangeRequest.Decision, size: Int64, mimeType: String, charset: String?
    ) -> (SchemeResponse, MultipartByteRanges?) {
        var fields = fields
        switch decision {
        case .whole, .unsatisfiable:
            let head = SchemeResponse(
                status: .ok, headerFields: fields, mimeType: mimeType, textEncodingName: charset,
                expectedContentLength: size)
            return (head, nil)
        case .partial(let ranges) where ranges.count == 1:
            let range = ranges[0]
            fields[.contentRange] = range.contentRange(completeLength: size)
            let head = SchemeResponse(
                status: .partialContent, headerFields: fields, mimeType: mimeType, textEncodingName: charset,
                expectedContentLength: range.count)
            return (head, nil)
        case .partial(let ranges):
            let multipart = MultipartByteRanges(
                ranges: ranges, completeLength: size,
                contentType: charset.map { "\(mimeType); charset=\($0)" } ?? mimeType)
            fields[.contentType] = multipart.contentTypeValue
            let head = SchemeResponse(
                status: .partialContent, headerFields: fields, mimeType: "multipart/byteranges",
                expectedContentLength: multipart.contentLength)
            return (head, multipart)
        }
    }

    /// Writes `range` of the file: from `whole` when the file is already in memory, as one file
    /// region when `region` is set, else streamed in chunks of ``Configuration/chunkSize``,
    /// checking for cancellation before each read.
    private func writeBody(
        _ file: FileDescriptorStat, range: ByteRange, whole: SchemeBody?, region: SchemeFileHandle?,
        _ writer: some SchemeResponseWriter
    ) async throws {
        if let whole {
            if range.first == 0, range.count == Int64(whole.count) {
                try await writer.write(whole)
            } else {
                try await writer.write(whole.slice(Int(range.first)..<Int(range.last + 1)))
            }
            return
        }
        if let region {
            FileReadProbe.current?.read(bytes: Int(range.count))
            try await writer.write(
                SchemeBody(fileRegion: SchemeFileRegion(region, offset: range.first, count: range.count)))
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

    /// A short plain-text answer (412, 416) with the file's fields.
    static func text(_ status: HTTPResponse.Status, _ message: String, fields: HTTPFields, request: SchemeRequest)
        -> SchemeCollectedResponse
    {
        let body = Data(message.utf8)
        var fields = fields
        fields[.contentEncoding] = nil  // the message goes out as it is, whatever the file's coding
        let head = SchemeResponse(
            status: status, headerFields: fields, mimeType: "text/plain", textEncodingName: "utf-8",
            expectedContentLength: Int64(body.count))
        return SchemeCollectedResponse(head: head, body: request.method == .head ? Data() : body)
    }

    /// The extension of a file name (after the last dot, when the dot is not the first character).
    static func pathExtension(of name: String) -> String {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.utf8.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }
}
