import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request in flight through ``URLSessionHTTPClient``: the bridge between URLSession's
/// delegate callbacks and the caller's `async` world, with a bounded body buffer.
///
/// Phases: `idle` (created) → `waiting` (caller suspended for the head) → `streaming` (head
/// returned, body flowing through ``body``) → `done`. Every failure — timeout, cancellation,
/// transport error — moves to `done` exactly once, resumes whatever is pending and cancels the
/// `URLSessionTask`.
///
/// ## Back-pressure
/// Body chunks wait in a buffer until the consumer pulls them (the body is an
/// `AsyncThrowingStream(unfolding:)`: nothing is pushed). When the buffer reaches
/// ``BodyLimits/highWatermark`` the upstream is paused; when the consumer has drained it to
/// ``BodyLimits/lowWatermark`` it is resumed. How a pause works depends on the platform:
/// - **Apple platforms:** `URLSessionTask.suspend()` / `resume()` stop and restart reading the
///   connection.
/// - **Linux (swift-corelibs-foundation):** `suspend()` removes the transfer from libcurl and
///   `resume()` *restarts it from the first byte* (measured: a second response head arrives), so
///   it cannot pause a transfer. A GET without a `Range` of its own therefore starts as a window,
///   `Range: bytes=0-(highWatermark-1)`, and a `206` to it is handed to the caller as the `200`
///   it asked for; an origin that ignores the range answers `200`, and then a pause cancels the
///   task instead, and the resume is a new request for the rest: `Range: bytes=N-` with `If-Range` carrying the first response's
///   validator (RFC 9110 §14.2, §13.1.5). Only a `206` whose `Content-Range` starts at `N`
///   continues the body; anything else fails it (the representation changed). When the complete
///   length is known, each resume asks for one window only (`bytes=N-M`, `highWatermark` bytes)
///   and the next window is asked for when the consumer has drained the buffer: libcurl reads
///   ahead of the delegate queue with no limit of its own (measured: hundreds of MiB queued in a
///   loaded process), and a bounded range is what bounds it. Bytes still on their way from a
///   cancelled transfer are dropped (the ranged request fetches them again).
///   A response that cannot be resumed that way — not a `200` to a GET, no `Accept-Ranges: bytes`,
///   no validator (a strong `ETag` or `Last-Modified`), or a content coding URLSession decoded —
///   is read at network speed, and a slow consumer lets it queue: libcurl offers no other way.
final class URLSessionExchange: Sendable {
    /// The buffer's watermarks, in bytes.
    struct BodyLimits: Sendable {
        /// Pause the upstream once this many unread bytes are buffered.
        var highWatermark: Int
        /// Resume it once the consumer has drained the buffer to this many.
        var lowWatermark: Int
    }

    private enum Phase {
        case idle
        case waiting(CheckedContinuation<SchemeHTTPClientResponse, any Error>)
        case streaming
        case done(failure: (any Error)?)
    }

    /// How the current transfer is paused.
    private enum Flow {
        /// Reading.
        case running
        /// Suspended with `URLSessionTask.suspend()` (Apple platforms).
        case suspended
        /// Cancelled at `offset`; a ranged request resumes it (Linux).
        case cancelledAt(offset: Int)
        /// A ranged request for `offset…` is in flight; its head has not arrived.
        case resumingAt(offset: Int)
    }

    private struct State {
        var phase: Phase = .idle
        var task: URLSessionDataTask?
        var timer: Task<Void, Never>?
        var flow = Flow.running
        var chunks: [Data] = []
        var chunkIndex = 0
        var bufferedBytes = 0
        /// Body bytes accepted into the buffer so far (the resume offset).
        var acceptedBytes = 0
        var reader: CheckedContinuation<Data?, any Error>?
        /// `If-Range` value for resuming on Linux; `nil` when the response cannot be resumed.
        var validator: String?
        /// The representation's complete length, when known (for bounded resume windows).
        var totalLength: Int?
        /// The current transfer is a bounded window (`Range: bytes=N-M`).
        var windowed = false
        /// The first request carried a window the caller did not ask for.
        var firstWindow = false
        var pauses = 0
    }

    private let state = Locked(State())
    let connectTimeout: Duration
    let timeout: Duration
    let limits: BodyLimits
    private let request: URLRequest
    /// Creates and registers a new URLSession task for a request (the ranged resume on Linux).
    private let makeTask: @Sendable (URLRequest, URLSessionExchange) -> URLSessionDataTask

    init(
        request: URLRequest,
        connectTimeout: Duration,
        timeout: Duration,
        limits: BodyLimits,
        makeTask: @escaping @Sendable (URLRequest, URLSessionExchange) -> URLSessionDataTask
    ) {
        self.request = request
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.limits = limits
        self.makeTask = makeTask
    }

    /// Bytes buffered and not yet pulled by the consumer.
    var bufferedBytes: Int { state.withLock { $0.bufferedBytes } }

    /// How many times the upstream was paused.
    var pauses: Int { state.withLock { $0.pauses } }

    /// Creates the first task and suspends until the head arrives or the exchange fails.
    func start() async throws -> SchemeHTTPClientResponse {
        var first = request
        var window = false
        #if canImport(FoundationNetworking)
            // libcurl reads ahead of the delegate queue without limit: even the first transfer
            // must be a bounded window to bound memory. The caller sees a plain 200 (see
            // `receive(head:task:)`); an origin that ignores the range answers 200 as usual.
            if (request.httpMethod ?? "GET") == "GET", request.value(forHTTPHeaderField: "Range") == nil,
                request.httpBody == nil
            {
                first.setValue("bytes=0-\(limits.highWatermark - 1)", forHTTPHeaderField: "Range")
                window = true
            }
        #endif
        let task = makeTask(first, self)
        state.withLock {
            $0.task = task
            $0.windowed = window
            $0.firstWindow = window
        }
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (head: CheckedContinuation<SchemeHTTPClientResponse, any Error>) in
                let start: URLSessionDataTask? = state.withLock { state in
                    switch state.phase {
                    case .done(let failure):
                        head.resume(throwing: failure ?? SchemeHTTPClientError(.cancelled))
                        return nil
                    default:
                        state.phase = .waiting(head)
                        return state.task
                    }
                }
                guard let start else { return }
                startTimer()
                start.resume()
            }
        } onCancel: {
            fail(SchemeHTTPClientError(.cancelled, detail: "the calling task was cancelled"))
        }
        // The head was built on URLSession's delegate queue, then handed over by the continuation
        // after `receive(head:task:)` released the state's lock. Taking that lock here orders the
        // two threads in a way ThreadSanitizer sees (it reported the continuation's hand-off from a
        // dispatch thread as a race on the head's storage).
        state.withLock { _ in }
        return response
    }

    private func startTimer() {
        let connectTimeout = self.connectTimeout
        let timeout = self.timeout
        let timer = Task { [weak self] in
            let headWait = min(connectTimeout, timeout)
            do { try await Task.sleep(for: headWait) } catch { return }
            self?.expireIfNoHead(after: headWait)
            do { try await Task.sleep(for: timeout - headWait) } catch { return }
            self?.fail(SchemeHTTPClientError(.timeout, detail: "exchange not complete within \(timeout)"))
        }
        let stale = state.withLock { state -> Task<Void, Never>? in
            if case .done = state.phase { return timer }
            state.timer = timer
            return nil
        }
        stale?.cancel()
    }

    private func expireIfNoHead(after wait: Duration) {
        let waiting = state.withLock { state in
            switch state.phase {
            case .idle, .waiting: true
            case .streaming, .done: false
            }
        }
        if waiting { fail(SchemeHTTPClientError(.timeout, detail: "no response head within \(wait)")) }
    }

    // MARK: Consumer side

    /// The next body chunk, `nil` at the end; suspends while the buffer is empty. Resumes a paused
    /// upstream once the buffer is at the low watermark.
    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (reader: CheckedContinuation<Data?, any Error>) in
                let (result, resume) = state.withLock { state -> (Result<Data?, any Error>?, ResumeAction?) in
                    if let chunk = take(&state) { return (.success(chunk), resumeIfDrained(&state)) }
                    if case .done(let failure) = state.phase {
                        return (failure.map { .failure($0) } ?? .success(nil), nil)
                    }
                    state.reader = reader
                    return (nil, resumeIfDrained(&state))
                }
                if let resume { perform(resume) }
                if let result { reader.resume(with: result) }
            }
        } onCancel: {
            fail(SchemeHTTPClientError(.cancelled, detail: "the reading task was cancelled"))
        }
    }

    /// The consumer dropped the body without reading it to the end.
    func abandon() {
        let ended = state.withLock { state in
            if case .done = state.phase { return true }
            return false
        }
        if !ended { fail(SchemeHTTPClientError(.cancelled, detail: "the response body was abandoned")) }
    }

    private func take(_ state: inout State) -> Data? {
        guard state.chunkIndex < state.chunks.count else { return nil }
        let chunk = state.chunks[state.chunkIndex]
        state.chunks[state.chunkIndex] = Data()
        state.chunkIndex += 1
        if state.chunkIndex == state.chunks.count || state.chunkIndex >= 64 {
            state.chunks.removeFirst(state.chunkIndex)
            state.chunkIndex = 0
        }
        state.bufferedBytes -= chunk.count
        return chunk
    }

    private enum ResumeAction {
        case resume(URLSessionDataTask)
        case rangedRequest(offset: Int)
    }

    private func resumeIfDrained(_ state: inout State) -> ResumeAction? {
        guard state.bufferedBytes <= limits.lowWatermark, case .streaming = state.phase else { return nil }
        switch state.flow {
        case .running, .resumingAt:
            return nil
        case .suspended:
            state.flow = .running
            return state.task.map { .resume($0) }
        case .cancelledAt(let offset):
            state.flow = .resumingAt(offset: offset)
            return .rangedRequest(offset: offset)
        }
    }

    private func perform(_ action: ResumeAction) {
        switch action {
        case .resume(let task):
            task.resume()
        case .rangedRequest(let offset):
            var ranged = request
            let validator = state.withLock { $0.validator }
            let total = state.withLock { $0.totalLength }
            let end = total.map { min($0, offset + limits.highWatermark) - 1 }
            ranged.setValue("bytes=\(offset)-\(end.map(String.init) ?? "")", forHTTPHeaderField: "Range")
            ranged.setValue(validator, forHTTPHeaderField: "If-Range")
            let task = makeTask(ranged, self)
            let stale = state.withLock { state -> Bool in
                guard case .streaming = state.phase else { return true }
                state.task = task
                state.windowed = end != nil
                return false
            }
            if stale { task.cancel() } else { task.resume() }
        }
    }

    // MARK: Delegate side

    /// A response head arrived on `task`.
    func receive(head response: URLResponse, task: URLSessionDataTask) {
        guard let http = response as? HTTPURLResponse, let head = Self.head(from: http) else {
            fail(SchemeHTTPClientError(.invalidResponse, detail: "not an HTTP response"))
            return
        }
        enum Step {
            case deliver(CheckedContinuation<SchemeHTTPClientResponse, any Error>)
            /// A 206 to our own first window: the caller gets the 200 it asked for.
            case deliverWhole(CheckedContinuation<SchemeHTTPClientResponse, any Error>)
            case retryWithoutWindow
            case resumed
            case ignore
            case mismatch(String)
        }
        let step = state.withLock { state -> Step in
            guard state.task === task else { return .ignore }
            switch state.phase {
            case .waiting(let waiter):
                if state.firstWindow {
                    state.firstWindow = false
                    if http.statusCode == 416 {
                        // An empty representation: ask again, without the window.
                        state.windowed = false
                        return .retryWithoutWindow
                    }
                    if http.statusCode == 206 {
                        guard Self.contentRangeStart(http) == 0 else {
                            return .mismatch("a first window not at byte 0")
                        }
                        if let coding = http.value(forHTTPHeaderField: "Content-Encoding"),
                            coding.lowercased() != "identity"
                        {
                            return .mismatch("a window of a content-coded body")
                        }
                        state.phase = .streaming
                        state.totalLength = Self.contentRangeTotal(http)
                        state.validator = Self.strongValidator(http)
                        return .deliverWhole(waiter)
                    }
                    // Anything else (a 200 from an origin without ranges, a 404…) is the answer.
                    state.windowed = false
                }
                state.phase = .streaming
                state.validator = Self.resumeValidator(for: http, request: request)
                if state.validator != nil {
                    state.totalLength = http.value(forHTTPHeaderField: "Content-Length").flatMap { Int($0) }
                }
                return .deliver(waiter)
            case .streaming:
                guard case .resumingAt(let offset) = state.flow else { return .ignore }
                guard http.statusCode == 206, Self.contentRangeStart(http) == offset else {
                    return .mismatch("status \(http.statusCode) to a resume at byte \(offset)")
                }
                if state.totalLength == nil { state.totalLength = Self.contentRangeTotal(http) }
                state.flow = .running
                return .resumed
            case .idle, .done:
                return .ignore
            }
        }
        switch step {
        case .deliver(let waiter):
            let reader = BodyReader(exchange: self)
            let body = AsyncThrowingStream<Data, any Error>(unfolding: { try await reader.next() })
            waiter.resume(returning: SchemeHTTPClientResponse(head: head, body: body))
        case .deliverWhole(let waiter):
            var whole = head
            whole.status = .ok
            whole.headerFields[.contentRange] = nil
            whole.headerFields[.contentLength] = Self.contentRangeTotal(http).map(String.init)
            let reader = BodyReader(exchange: self)
            let body = AsyncThrowingStream<Data, any Error>(unfolding: { try await reader.next() })
            waiter.resume(returning: SchemeHTTPClientResponse(head: whole, body: body))
        case .retryWithoutWindow:
            let retry = makeTask(request, self)
            let stale = state.withLock { state -> Bool in
                guard case .waiting = state.phase else { return true }
                state.task = retry
                return false
            }
            if stale { retry.cancel() } else { retry.resume() }
        case .mismatch(let detail):
            fail(SchemeHTTPClientError(.invalidResponse, detail: "the upstream could not resume the body: \(detail)"))
        case .resumed, .ignore:
            break
        }
    }

    /// Body bytes arrived on `task`.
    func receive(data: Data, task: URLSessionDataTask) {
        guard !data.isEmpty else { return }
        let (reader, pause) = state.withLock {
            state -> (CheckedContinuation<Data?, any Error>?, URLSessionDataTask?) in
            guard state.task === task, case .streaming = state.phase else { return (nil, nil) }
            switch state.flow {
            case .running: break
            // Linux: bytes still arriving from a transfer we cancelled are fetched again by the resume.
            case .cancelledAt, .resumingAt: return (nil, nil)
            // Apple platforms: what arrives while suspending is kept.
            case .suspended: break
            }
            state.acceptedBytes += data.count
            if let reader = state.reader {
                state.reader = nil
                return (reader, nil)
            }
            state.chunks.append(data)
            state.bufferedBytes += data.count
            guard state.bufferedBytes >= limits.highWatermark, case .running = state.flow else { return (nil, nil) }
            state.pauses += 1
            #if canImport(FoundationNetworking)
                // A bounded window ends by itself; only an open-ended transfer is cancelled.
                guard state.validator != nil, !state.windowed else {
                    state.pauses -= 1
                    return (nil, nil)
                }
                state.flow = .cancelledAt(offset: state.acceptedBytes)
                // The cancelled task's late callbacks (data, completion) are no longer ours.
                defer { state.task = nil }
            #else
                state.flow = .suspended
            #endif
            return (nil, state.task)
        }
        reader?.resume(returning: data)
        if let pause {
            #if canImport(FoundationNetworking)
                pause.cancel()
            #else
                pause.suspend()
            #endif
        }
    }

    /// URLSession finished `task`, with or without an error.
    func complete(error: (any Error)?, task: URLSessionDataTask) {
        let current = state.withLock { $0.task === task }
        guard current else { return }
        if let error {
            fail(Self.map(error))
            return
        }
        // A bounded window ended before the body did: the next one is asked for once drained.
        let window = state.withLock { state -> (Bool, ResumeAction?) in
            guard state.windowed, let total = state.totalLength, state.acceptedBytes < total,
                case .streaming = state.phase, case .running = state.flow
            else { return (false, nil) }
            state.task = nil
            state.windowed = false
            state.flow = .cancelledAt(offset: state.acceptedBytes)
            if state.reader != nil || state.bufferedBytes <= limits.lowWatermark {
                return (true, resumeIfDrained(&state))
            }
            return (true, nil)
        }
        if window.0 {
            if let action = window.1 { perform(action) }
            return
        }
        let (waiter, reader, timer) = state.withLock {
            state -> (
                CheckedContinuation<SchemeHTTPClientResponse, any Error>?, CheckedContinuation<Data?, any Error>?,
                Task<Void, Never>?
            ) in
            let timer = state.timer
            state.timer = nil
            state.task = nil
            let reader = state.reader
            state.reader = nil
            switch state.phase {
            case .waiting(let waiter):
                state.phase = .done(failure: nil)
                return (waiter, nil, timer)
            case .idle, .streaming:
                state.phase = .done(failure: nil)
                return (nil, reader, timer)
            case .done:
                return (nil, reader, timer)
            }
        }
        timer?.cancel()
        waiter?.resume(throwing: SchemeHTTPClientError(.invalidResponse, detail: "completed without a response head"))
        reader?.resume(returning: nil)
    }

    /// Ends the exchange with `error` (once) and cancels the URLSession task.
    func fail(_ error: any Error) {
        let (waiter, reader, task, timer) = state.withLock {
            state -> (
                CheckedContinuation<SchemeHTTPClientResponse, any Error>?, CheckedContinuation<Data?, any Error>?,
                URLSessionDataTask?, Task<Void, Never>?
            ) in
            let task = state.task
            let timer = state.timer
            state.task = nil
            state.timer = nil
            switch state.phase {
            case .waiting(let waiter):
                state.phase = .done(failure: error)
                return (waiter, nil, task, timer)
            case .idle, .streaming:
                state.phase = .done(failure: error)
                let reader = state.reader
                state.reader = nil
                state.chunks = []
                state.chunkIndex = 0
                state.bufferedBytes = 0
                return (nil, reader, task, timer)
            case .done:
                return (nil, nil, task, timer)
            }
        }
        timer?.cancel()
        task?.cancel()
        waiter?.resume(throwing: error)
        reader?.resume(throwing: error)
    }

    // MARK: Conversions

    static func head(from response: HTTPURLResponse) -> HTTPResponse? {
        guard (100...999).contains(response.statusCode) else { return nil }
        var fields = HTTPFields()
        let pairs = response.allHeaderFields.compactMap { key, value -> (String, String)? in
            guard let key = key as? String, let value = value as? String else { return nil }
            return (key, value)
        }
        for (key, value) in pairs.sorted(by: { $0.0.lowercased() < $1.0.lowercased() }) {
            guard let name = HTTPField.Name(key) else { continue }
            if name == .setCookie {
                for cookie in splitSetCookie(value) { fields.append(HTTPField(name: name, value: cookie)) }
            } else {
                fields.append(HTTPField(name: name, value: value))
            }
        }
        // URLSession decodes gzip/deflate transparently: the body we deliver is no longer encoded,
        // so the encoding and the encoded length must not reach the engine.
        if let encoding = fields[.contentEncoding], encoding.lowercased() != "identity" {
            fields[.contentEncoding] = nil
            fields[.contentLength] = nil
        }
        return HTTPResponse(status: .init(code: response.statusCode), headerFields: fields)
    }

    /// The `Set-Cookie` fields Foundation joined into one value with commas
    /// (`HTTPURLResponse.allHeaderFields` has one value per name), apart again: a comma starts
    /// another cookie when `name=` follows it, which the comma in an `Expires` date
    /// (`Wed, 21 Oct 2026 …`) never is (RFC 6265 §3 forbids folding them).
    static func splitSetCookie(_ value: String) -> [String] {
        let bytes = Array(value.utf8)
        var cookies: [String] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: ",") && startsCookie(bytes, at: index + 1) {
            cookies.append(trimmed(bytes[start..<index]))
            start = index + 1
        }
        cookies.append(trimmed(bytes[start...]))
        return cookies.filter { !$0.isEmpty }
    }

    /// Whether `bytes[offset...]` is optional spaces, a token and `=`: the start of a cookie.
    private static func startsCookie(_ bytes: [UInt8], at offset: Int) -> Bool {
        var index = offset
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
        let nameStart = index
        while index < bytes.count, isTokenByte(bytes[index]) { index += 1 }
        return index > nameStart && index < bytes.count && bytes[index] == UInt8(ascii: "=")
    }

    /// An RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    /// The `If-Range` value that lets a ranged request continue this response, or `nil` when it
    /// cannot be resumed: not a 200 to a GET, no `Accept-Ranges: bytes`, a decoded content coding,
    /// or no usable validator (a strong `ETag`, else `Last-Modified`; RFC 9110 §13.1.5).
    static func resumeValidator(for response: HTTPURLResponse, request: URLRequest) -> String? {
        guard response.statusCode == 200, (request.httpMethod ?? "GET") == "GET",
            request.value(forHTTPHeaderField: "Range") == nil
        else { return nil }
        let accept = response.value(forHTTPHeaderField: "Accept-Ranges")?.lowercased() ?? ""
        guard accept.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "bytes" })
        else { return nil }
        if let encoding = response.value(forHTTPHeaderField: "Content-Encoding"), encoding.lowercased() != "identity" {
            return nil
        }
        if let tag = response.value(forHTTPHeaderField: "ETag"), tag.hasPrefix("\"") { return tag }
        return response.value(forHTTPHeaderField: "Last-Modified")
    }

    /// The validator of a 206 for `If-Range`: a strong `ETag`, else `Last-Modified`, else `nil`
    /// (the next windows are then asked for without `If-Range`).
    static func strongValidator(_ response: HTTPURLResponse) -> String? {
        if let tag = response.value(forHTTPHeaderField: "ETag"), tag.hasPrefix("\"") { return tag }
        return response.value(forHTTPHeaderField: "Last-Modified")
    }

    /// The complete length of a `Content-Range: bytes a-b/c` field; `nil` for `*`.
    static func contentRangeTotal(_ response: HTTPURLResponse) -> Int? {
        guard let value = response.value(forHTTPHeaderField: "Content-Range") else { return nil }
        return value.split(separator: "/").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The first byte position of a `Content-Range: bytes a-b/c` field.
    static func contentRangeStart(_ response: HTTPURLResponse) -> Int? {
        guard let value = response.value(forHTTPHeaderField: "Content-Range") else { return nil }
        let parts = value.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bytes" else { return nil }
        return parts[1].split(separator: "-").first.flatMap { Int($0) }
    }

    static func map(_ error: any Error) -> any Error {
        if error is SchemeHTTPClientError { return error }
        guard let urlError = error as? URLError else {
            return SchemeHTTPClientError(.connectionFailed, detail: String(describing: error))
        }
        switch urlError.code {
        case .timedOut:
            return SchemeHTTPClientError(.timeout, detail: urlError.localizedDescription)
        case .cancelled:
            return SchemeHTTPClientError(.cancelled)
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData,
            .zeroByteResource:
            return SchemeHTTPClientError(.invalidResponse, detail: urlError.localizedDescription)
        default:
            return SchemeHTTPClientError(.connectionFailed, detail: urlError.localizedDescription)
        }
    }
}

/// The body stream's producer: pulls from the exchange, and cancels it when the stream is dropped
/// (the stream releases its closure, and this reader with it, when iteration ends or is cancelled).
private final class BodyReader: Sendable {
    let exchange: URLSessionExchange

    init(exchange: URLSessionExchange) {
        self.exchange = exchange
    }

    deinit {
        exchange.abandon()
    }

    func next() async throws -> Data? {
        try await exchange.next()
    }
}
