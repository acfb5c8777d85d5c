import Foundation
import HTTPTypes

extension LocalFileHandler {
    /// Answers GET and HEAD from the directory, passes when nothing matches.
    ///
    /// At once, what needs no read: refusals (403, hidden 404), a pass for a missing file,
    /// 304, 412 and 416, an empty file, HEAD of a file whose type its extension gives, and GET of
    /// a file whose body is in the body cache (``Configuration/bodyCache``), whole, in one range, or
    /// in an on-the-fly coding the request accepts (``Configuration/encoders``, made once per file
    /// and kept).
    ///
    /// Everything else is a ``SchemeAnswer/writing(_:)`` answer that reads — a body to read (as a
    /// file region, one per range, for an engine that sends files itself), a type to sniff,
    /// several ranges, a listing, a root that is unavailable — from the file the immediate half
    /// already opened: one decoder, one resolver, one `plan`, and one `open` per request. The
    /// only system calls of the immediate half are the resolver's `open`s and one `fstat` — or a
    /// single `lstat` for a path answered before from a cached body (see the body cache's
    /// `open_file_cache`-like locations, which remember the file chosen for each set of acceptable
    /// codings, so a browser's request with `Accept-Encoding`, `If-None-Match` or
    /// `If-Modified-Since` takes that one `lstat` too).
    public func answer(to request: SchemeRequest) -> SchemeAnswer {
        guard request.method == .get || request.method == .head else { return .passed }
        let negotiation = negotiate(request)
        if let cache = bodyCache,
            let (file, location, entry) = cache.entry(forRequestPath: request.path, negotiation: negotiation.mask),
            var answer = immediateAnswer(
                file, name: location.name, encoding: location.encoding, encoder: negotiation.encoder,
                request: request, cached: entry)
        {
            answer.validator = FileIdentityCheck(path: location.path, key: location.key)
            return .response(answer)
        }
        let location: Location
        do {
            location = try locate(request, negotiation: negotiation)
        } catch {
            return .writing { _ in throw error }
        }
        switch location {
        case .passed:
            return .passed
        case .refused(let status, let reason):
            return .response(refusal(status, reason: reason, request: request))
        case .redirect(let location):
            return .response(redirect(to: location, request: request))
        case .directory(let directory, _) where !configuration.directoryListing:
            directory.close()
            return .passed
        case .directory:
            break
        case .file(let file, let name, let encoding, let directPath):
            FileReadProbe.current?.opened(device: file.device, inode: file.inode)
            let cached = bodyCache.flatMap { $0.admits(file) ? $0.entry(of: file) : nil }
            if cached != nil, let directPath {
                bodyCache?.remember(
                    requestPath: request.path, negotiation: negotiation.mask, path: directPath, name: name,
                    encoding: encoding, file: file)
            }
            if var answer = immediateAnswer(
                file, name: name, encoding: encoding, encoder: negotiation.encoder, request: request, cached: cached)
            {
                if cached != nil, let directPath {
                    answer.validator = FileIdentityCheck(path: directPath, key: FileBodyCache.Key(file))
                }
                file.close()
                return .response(answer)
            }
        }
        // The reading half takes over what was opened (closed when it ends, or if it never runs).
        let opened = OpenLocation(location)
        return .writing { writer in
            try await self.respondByReading(request, opened.take(), negotiation: negotiation, writer: writer)
        }
    }

    /// A located file or directory handed from the immediate half of ``answer(to:)`` to the reading
    /// half: closed on release when the reading half never took it (a task stopped before it ran).
    final class OpenLocation: @unchecked Sendable {
        /// Set once; taken once (under the lock).
        private let location: Locked<Location?>

        init(_ location: Location) {
            self.location = Locked(location)
        }

        /// The location; the caller closes what it holds. A second call finds nothing.
        func take() -> Location {
            location.withLock { location in
                defer { location = nil }
                return location ?? .passed
            }
        }

        deinit {
            switch location.withLock({ $0 }) {
            case .file(let file, _, _, _): file.close()
            case .directory(let directory, _): directory.close()
            case .passed, .refused, .redirect, nil: break
            }
        }
    }

    private func immediateAnswer(
        _ file: FileDescriptorStat, name: String, encoding: PrecompressedEncoding?,
        encoder: (any SchemeContentEncoder)?, request: SchemeRequest, cached: FileBodyCache.Entry?
    ) -> SchemeCollectedResponse? {
        let size = file.size
        // An on-the-fly coding of a cached compressible body: kept beside the body, made once.
        if let encoder, encoding == nil, let cached, size >= Int64(CompressibleContent.minimumSize) {
            if let variant = cached.variants[encoder.contentCoding] {
                return variantAnswer(variant, of: file, coding: encoder.contentCoding, request: request)
            }
            let sniffs = needsSniffing(name, encoding: nil)
            let (mimeType, charset) = detector.contentType(
                forPath: name, leadingBytes: sniffs ? cached.body.prefix(Self.sniffLength) : nil)
            if CompressibleContent.isCompressible(mimeType),
                let variant = encodedVariant(
                    of: file, body: cached.body, coding: encoder, mimeType: mimeType, charset: charset,
                    cache: bodyCache)
            {
                return variantAnswer(variant, of: file, coding: encoder.contentCoding, request: request)
            }
        }
        // The common case: a plain GET or HEAD of a cached file whose head was built before.
        if let cached, let head = cached.head, head.name == name, head.contentCoding == encoding?.contentCoding,
            request.headerFields[.range] == nil, ConditionalRequest(request.headerFields).isEmpty
        {
            var answer = SchemeCollectedResponse(
                head: head.response, body: request.method == .head ? Data() : cached.body)
            answer.representationID = request.method == .head ? nil : head.id
            return answer
        }
        let fields: HTTPFields
        let decision: RangeRequest.Decision
        switch plan(file, encoding: encoding, request: request) {
        case .notModified(let fields):
            let head = SchemeResponse(status: .notModified, headerFields: fields)
            return SchemeCollectedResponse(head: head, body: Data())
        case .text(let status, let message, let fields):
            return Self.text(status, message, fields: fields, request: request)
        case .content(let planned, let planDecision):
            fields = planned
            decision = planDecision
        }
        if case .partial(let ranges) = decision, ranges.count > 1 { return nil }
        let sniffs = needsSniffing(name, encoding: encoding)
        let body: Data
        if size == 0 {
            body = Data()
        } else if let cached {
            body = cached.body
        } else if request.method == .head, !sniffs {
            body = Data()
        } else {
            return nil  // a body to read (as a region, for an engine that takes them)
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
            return SchemeCollectedResponse(head: head, body: Data())
        }
        let range: ByteRange
        switch decision {
        case .partial(let ranges): range = ranges[0]
        case .whole, .unsatisfiable: range = ByteRange(first: 0, last: size - 1)
        }
        let start = body.startIndex + Int(range.first)
        var answer = SchemeCollectedResponse(head: head, body: body[start..<(start + Int(range.count))])
        answer.representationID = id
        return answer
    }
}
