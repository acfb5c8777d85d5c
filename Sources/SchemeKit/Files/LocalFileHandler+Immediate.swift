import Foundation
import HTTPTypes

extension LocalFileHandler {
    /// Answers at once what needs no read: refusals (403, hidden 404), a pass for a missing file,
    /// 304, 412 and 416, an empty file, HEAD of a file whose type its extension gives, and GET of
    /// a file whose body is in the body cache (``Configuration/bodyCache``), whole, in one range, or
    /// in an on-the-fly coding the request accepts (``Configuration/encoders``, made once per file
    /// and kept) — or, for any other file whose type its extension gives, whole or one range as a
    /// file region (``SchemeCollectedResponse/fileRegion``), which only an engine that sends files
    /// itself takes.
    ///
    /// Everything else is ``SchemeImmediateAnswer/deferred`` to ``handle(_:writer:)``: a body to
    /// read, a type to sniff, several ranges, a listing, a root that is unavailable. The answer is
    /// what ``handle(_:writer:)`` would write, from the same decoder, resolver and ``plan``. The
    /// only system calls are the resolver's `open`s and one `fstat` — or a single `lstat` for a
    /// path answered before from a cached body (see the body cache's `open_file_cache`-like
    /// locations, which remember the file chosen for each set of acceptable codings, so a
    /// browser's request with `Accept-Encoding`, `If-None-Match` or `If-Modified-Since` takes that
    /// one `lstat` too).
    public func immediateAnswer(to request: SchemeRequest) -> SchemeImmediateAnswer {
        guard request.method == .get || request.method == .head else { return .passed }
        let negotiation = negotiate(request)
        if let cache = bodyCache,
            let (file, location, entry) = cache.entry(forRequestPath: request.path, negotiation: negotiation.mask)
        {
            return immediateAnswer(
                file, name: location.name, encoding: location.encoding, encoder: negotiation.encoder,
                request: request, cached: entry)
        }
        let location: Location
        do { location = try locate(request, negotiation: negotiation) } catch { return .deferred }
        switch location {
        case .passed:
            return .passed
        case .refused(let status):
            return .response(refusal(status, request: request))
        case .directory(let directory, _):
            directory.close()
            return configuration.directoryListing ? .deferred : .passed
        case .file(let file, let name, let encoding, let directPath):
            defer { file.close() }
            FileReadProbe.current?.opened(device: file.device, inode: file.inode)
            let cached = bodyCache.flatMap { $0.admits(file) ? $0.entry(of: file) : nil }
            if cached != nil, let directPath {
                bodyCache?.remember(
                    requestPath: request.path, negotiation: negotiation.mask, path: directPath, name: name,
                    encoding: encoding, file: file)
            }
            return immediateAnswer(
                file, name: name, encoding: encoding, encoder: negotiation.encoder, request: request, cached: cached)
        }
    }

    private func immediateAnswer(
        _ file: FileDescriptorStat, name: String, encoding: PrecompressedEncoding?,
        encoder: (any SchemeContentEncoder)?, request: SchemeRequest, cached: FileBodyCache.Entry?
    ) -> SchemeImmediateAnswer {
        let size = file.size
        // An on-the-fly coding of a cached compressible body: kept beside the body, made once.
        if let encoder, encoding == nil, let cached, size >= Int64(CompressibleContent.minimumSize) {
            if let variant = cached.variants[encoder.contentCoding] {
                return .response(variantAnswer(variant, of: file, coding: encoder.contentCoding, request: request))
            }
            let sniffs = needsSniffing(name, encoding: nil)
            let (mimeType, charset) = detector.contentType(
                forPath: name, leadingBytes: sniffs ? cached.body.prefix(Self.sniffLength) : nil)
            if CompressibleContent.isCompressible(mimeType),
                let variant = encodedVariant(
                    of: file, body: cached.body, coding: encoder, mimeType: mimeType, charset: charset,
                    cache: bodyCache)
            {
                return .response(variantAnswer(variant, of: file, coding: encoder.contentCoding, request: request))
            }
        }
        // The common case: a plain GET or HEAD of a cached file whose head was built before.
        if let cached, let head = cached.head, head.name == name, head.contentCoding == encoding?.contentCoding,
            request.headerFields[.range] == nil, ConditionalRequest(request.headerFields).isEmpty
        {
            var answer = SchemeCollectedResponse(
                head: head.response, body: request.method == .head ? Data() : cached.body)
            answer.representationID = request.method == .head ? nil : head.id
            return .response(answer)
        }
        let fields: HTTPFields
        let decision: RangeRequest.Decision
        switch plan(file, encoding: encoding, request: request) {
        case .notModified(let fields):
            let head = SchemeResponse(status: .notModified, headerFields: fields)
            return .response(SchemeCollectedResponse(head: head, body: Data()))
        case .text(let status, let message, let fields):
            return .response(Self.text(status, message, fields: fields, request: request))
        case .content(let planned, let planDecision):
            fields = planned
            decision = planDecision
        }
        if case .partial(let ranges) = decision, ranges.count > 1 { return .deferred }
        let sniffs = needsSniffing(name, encoding: encoding)
        let body: Data
        var region: SchemeFileHandle?
        if size == 0 {
            body = Data()
        } else if let cached {
            body = cached.body
        } else if request.method == .head, !sniffs {
            body = Data()
        } else if request.method == .get, !sniffs, bodyCache?.admits(file) != true,
            let handle = try? SchemeFileHandle(duplicating: file.fd)
        {
            // No read: the body as a region of the file, for an engine that sends files itself
            // (the registry leaves it to a task for any other engine). A file the body cache would
            // keep is read by a task instead, which fills the cache.
            body = Data()
            region = handle
        } else {
            return .deferred
        }
        let (mimeType, charset) = detector.contentType(
            forPath: name, leadingBytes: sniffs ? body.prefix(Self.sniffLength) : nil)
        let (head, _) = Self.contentHead(
            fields: fields, decision: decision, size: size, mimeType: mimeType, charset: charset)
        var id: UInt64?
        if cached != nil, decision == .whole, let cache = bodyCache {
            let stored = FileBodyCache.Head(name: name, contentCoding: encoding?.contentCoding, response: head)
            cache.store(stored, of: file)
            id = stored.id
        }
        guard request.method == .get, size > 0 else {
            return .response(SchemeCollectedResponse(head: head, body: Data()))
        }
        let range: ByteRange
        switch decision {
        case .partial(let ranges): range = ranges[0]
        case .whole, .unsatisfiable: range = ByteRange(first: 0, last: size - 1)
        }
        if let region {
            FileReadProbe.current?.read(bytes: Int(range.count))
            return .response(
                SchemeCollectedResponse(
                    head: head, body: Data(),
                    fileRegion: SchemeFileRegion(region, offset: range.first, count: range.count)))
        }
        let start = body.startIndex + Int(range.first)
        var answer = SchemeCollectedResponse(head: head, body: body[start..<(start + Int(range.count))])
        answer.representationID = id
        return .response(answer)
    }
}
