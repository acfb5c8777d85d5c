import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request in flight through ``URLSessionHTTPClient``: the bridge between URLSession's
/// delegate callbacks and the caller's `async` world.
///
/// Phases: `idle` (created) → `waiting` (caller suspended for the head) → `streaming` (head
/// returned, body flowing through ``stream``) → `done`. Every failure — timeout, cancellation,
/// transport error — moves to `done` exactly once, resumes or finishes whatever is pending and
/// cancels the `URLSessionTask`.
final class URLSessionExchange: Sendable {
    private enum Phase {
        case idle
        case waiting(CheckedContinuation<SchemeHTTPClientResponse, any Error>)
        case streaming
        case done(failure: (any Error)?)
    }

    private struct State {
        var phase: Phase = .idle
        var task: URLSessionDataTask?
        var timer: Task<Void, Never>?
        /// Handed to the caller with the head, then dropped here: when the caller drops it too, the
        /// stream's termination handler cancels the request.
        var stream: AsyncThrowingStream<Data, any Error>?
    }

    private let state = LockedState(State())
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    let connectTimeout: Duration
    let timeout: Duration

    init(connectTimeout: Duration, timeout: Duration) {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
        self.state.withLock { $0.stream = stream }
        self.continuation = continuation
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        continuation.onTermination = { [weak self] termination in
            // The consumer stopped iterating (its task was cancelled or it dropped the stream).
            if case .cancelled = termination {
                self?.fail(SchemeHTTPClientError(.cancelled, detail: "the response body was abandoned"))
            }
        }
    }

    /// Binds the URLSession task; called before ``waitForHead(task:)``.
    func attach(_ task: URLSessionDataTask) {
        state.withLock { $0.task = task }
    }

    /// Starts the task and suspends until the head arrives or the exchange fails.
    func waitForHead() async throws -> SchemeHTTPClientResponse {
        try await withTaskCancellationHandler {
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

    // MARK: Delegate side

    /// The response head arrived.
    func receive(head response: URLResponse) {
        guard let http = response as? HTTPURLResponse, let head = Self.head(from: http) else {
            fail(SchemeHTTPClientError(.invalidResponse, detail: "not an HTTP response"))
            return
        }
        let handOver = state.withLock {
            state -> (CheckedContinuation<SchemeHTTPClientResponse, any Error>, AsyncThrowingStream<Data, any Error>)?
            in
            guard case .waiting(let waiter) = state.phase, let stream = state.stream else { return nil }
            state.phase = .streaming
            state.stream = nil
            return (waiter, stream)
        }
        if let (waiter, stream) = handOver {
            waiter.resume(returning: SchemeHTTPClientResponse(head: head, body: stream))
        }
    }

    /// Body bytes arrived.
    func receive(data: Data) {
        let streaming = state.withLock { state in
            if case .streaming = state.phase { return true }
            return false
        }
        if streaming && !data.isEmpty { continuation.yield(data) }
    }

    /// URLSession finished the task, with or without an error.
    func complete(error: (any Error)?) {
        if let error {
            fail(Self.map(error))
            return
        }
        let (waiter, timer) = state.withLock {
            state -> (CheckedContinuation<SchemeHTTPClientResponse, any Error>?, Task<Void, Never>?) in
            let timer = state.timer
            state.timer = nil
            state.task = nil
            switch state.phase {
            case .waiting(let waiter):
                state.phase = .done(failure: nil)
                return (waiter, timer)
            case .idle, .streaming:
                state.phase = .done(failure: nil)
                return (nil, timer)
            case .done:
                return (nil, timer)
            }
        }
        timer?.cancel()
        waiter?.resume(throwing: SchemeHTTPClientError(.invalidResponse, detail: "completed without a response head"))
        continuation.finish()
    }

    /// Ends the exchange with `error` (once) and cancels the URLSession task.
    func fail(_ error: any Error) {
        let (waiter, task, timer, first) = state.withLock {
            state -> (
                CheckedContinuation<SchemeHTTPClientResponse, any Error>?, URLSessionDataTask?, Task<Void, Never>?, Bool
            ) in
            let task = state.task
            let timer = state.timer
            state.task = nil
            state.timer = nil
            switch state.phase {
            case .waiting(let waiter):
                state.phase = .done(failure: error)
                return (waiter, task, timer, true)
            case .idle, .streaming:
                state.phase = .done(failure: error)
                return (nil, task, timer, true)
            case .done:
                return (nil, task, timer, false)
            }
        }
        timer?.cancel()
        task?.cancel()
        guard first else { return }
        waiter?.resume(throwing: error)
        continuation.finish(throwing: error)
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
            fields.append(HTTPField(name: name, value: value))
        }
        // URLSession decodes gzip/deflate transparently: the body we deliver is no longer encoded,
        // so the encoding and the encoded length must not reach the engine.
        if let encoding = fields[.contentEncoding], encoding.lowercased() != "identity" {
            fields[.contentEncoding] = nil
            fields[.contentLength] = nil
        }
        return HTTPResponse(status: .init(code: response.statusCode), headerFields: fields)
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
