public import Foundation
import SchemeKit
import Synchronization

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The stand-in's implementation of ``WKURLSchemeTask``: checks every call as WebKit's
/// `WKURLSchemeTask.mm` / `WebURLSchemeTask.cpp` do, records the calls that pass as ``Event``s and
/// the rest as ``StandInViolation``s.
///
/// The rules, as read from WebKit's source (`WebURLSchemeTask::didReceiveResponse`,
/// `didReceiveData`, `didComplete`):
/// - every call after the stop → ``StandInViolation/taskAlreadyStopped(call:)``; then
/// - every call after `didFinish`/`didFailWithError` → ``StandInViolation/completeAlreadyCalled(call:)``;
/// - a response after data → ``StandInViolation/dataAlreadySent`` (a second response before any
///   data is accepted, as in WebKit);
/// - data, or `didFinish`, before a response → ``StandInViolation/noResponseSent(call:)``
///   (`didFailWithError` before a response is fine);
/// - any call off the main thread → ``StandInViolation/offMainThread(call:)`` (and the call is
///   still checked as above).
///
/// **Assumption** (not in the headers): WebKit never calls `webView(_:stop:)` for a task that
/// completed, and marks the task stopped before it calls `webView(_:stop:)`, so a call made from
/// inside the handler's stop method is a violation. The stand-in's engine does both.
///
/// `@unchecked Sendable`: an `NSObject` subclass cannot be checked; every mutable field is inside
/// `state`, a `Locked` (a pthread mutex the thread sanitizer sees), so that calls from any thread are recorded.
public final class StandInURLSchemeTask: NSObject, WKURLSchemeTask, @unchecked Sendable {
    /// A call that WebKit accepted.
    public enum Event: Sendable, Equatable {
        /// `didReceive(_: URLResponse)` with an `HTTPURLResponse`'s status and header fields.
        case response(status: Int, headers: [String: String])
        /// `didReceive(_: Data)` with this many bytes.
        case data(Int)
        /// `didFinish()`.
        case finish
        /// `didFailWithError(_:)`, with the error's description.
        case fail(String)
    }

    private struct State {
        var events: [Event] = []
        var violations: [StandInViolation] = []
        var responseSent = false
        var dataSent = false
        var completed = false
        var stopped = false
        var bytes = 0
        var largestPiece = 0
        var body = Data()
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    /// The request.
    public let request: URLRequest
    /// Whether body bytes are kept (``body``); otherwise only counted. Default: `true`.
    public let keepsBody: Bool
    private let state = Locked(State())
    private let onEvent: (@Sendable (StandInURLSchemeTask, Event) -> Void)?

    /// A task for `request`.
    ///
    /// - Parameters:
    ///   - request: The request the page made.
    ///   - keepsBody: Whether to keep the body bytes (`false` for large bodies: only counted).
    ///   - onEvent: Called after each accepted call, on the caller's thread, outside the task's lock.
    public init(
        request: URLRequest, keepsBody: Bool = true,
        onEvent: (@Sendable (StandInURLSchemeTask, Event) -> Void)? = nil
    ) {
        self.request = request
        self.keepsBody = keepsBody
        self.onEvent = onEvent
    }

    /// The accepted calls, in order.
    public var events: [Event] { state.withLock { $0.events } }
    /// The calls WebKit would have raised for, in order.
    public var violations: [StandInViolation] { state.withLock { $0.violations } }
    /// Body bytes received.
    public var byteCount: Int { state.withLock { $0.bytes } }
    /// The largest single `didReceive(_: Data)`.
    public var largestPiece: Int { state.withLock { $0.largestPiece } }
    /// The body received, when ``keepsBody``.
    public var body: Data { state.withLock { $0.body } }
    /// Whether `didFinish` or `didFailWithError` was accepted.
    public var isCompleted: Bool { state.withLock { $0.completed } }
    /// Whether the engine stopped the task.
    public var isStopped: Bool { state.withLock { $0.stopped } }
    /// The accepted response's status, if any.
    public var status: Int? {
        state.withLock { state in
            state.events.lazy.compactMap { event -> Int? in
                if case .response(let status, _) = event { return status }
                return nil
            }.last
        }
    }

    /// The engine's side: marks the task stopped, before calling the handler's `webView(_:stop:)`.
    /// Returns `false` when the task had already completed or stopped (WebKit then does not call
    /// the handler).
    public func markStopped() -> Bool {
        let waiters: [CheckedContinuation<Void, Never>]? = state.withLock { state in
            guard !state.stopped, !state.completed else { return nil }
            state.stopped = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume() }
        return true
    }

    /// Returns once the task completed or was stopped, or the calling task was cancelled (so that a
    /// test's time limit can end a wait for a task that never ends).
    public func waitForEnd() async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ended = state.withLock { state in
                    if state.completed || state.stopped || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if ended { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Checks one call; returns whether WebKit would have accepted it, and what it completes.
    private func check(_ call: String, _ rule: (inout State) -> StandInViolation?) -> Bool {
        let onMain = StandInMainThread.isCurrent
        return state.withLock { state in
            if !onMain { state.violations.append(.offMainThread(call: call)) }
            if state.stopped {
                state.violations.append(.taskAlreadyStopped(call: call))
                return false
            }
            if state.completed {
                state.violations.append(.completeAlreadyCalled(call: call))
                return false
            }
            if let violation = rule(&state) {
                state.violations.append(violation)
                return false
            }
            return true
        }
    }

    private func record(_ event: Event, completing: Bool = false, bytes: Data? = nil) {
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.events.append(event)
            if let bytes {
                state.bytes += bytes.count
                state.largestPiece = max(state.largestPiece, bytes.count)
                if keepsBody { state.body.append(bytes) }
            }
            guard completing else { return [] }
            state.completed = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
        onEvent?(self, event)
    }

    /// See ``WKURLSchemeTask/didReceive(_:)-(URLResponse)``.
    public func didReceive(_ response: URLResponse) {
        guard
            check(
                "didReceiveResponse:",
                { state in
                    if state.dataSent { return .dataAlreadySent }
                    state.responseSent = true
                    return nil
                })
        else { return }
        var headers: [String: String] = [:]
        var status = 200
        if let http = response as? HTTPURLResponse {
            status = http.statusCode
            for (name, value) in http.allHeaderFields {
                headers[String(describing: name).lowercased()] = String(describing: value)
            }
        }
        record(.response(status: status, headers: headers))
    }

    /// See ``WKURLSchemeTask/didReceive(_:)-(Data)``.
    public func didReceive(_ data: Data) {
        guard
            check(
                "didReceiveData:",
                { state in
                    guard state.responseSent else { return .noResponseSent(call: "didReceiveData:") }
                    state.dataSent = true
                    return nil
                })
        else { return }
        record(.data(data.count), bytes: data)
    }

    /// See ``WKURLSchemeTask/didFinish()``.
    public func didFinish() {
        guard
            check(
                "didFinish",
                { state in
                    state.responseSent ? nil : .noResponseSent(call: "didFinish")
                })
        else { return }
        record(.finish, completing: true)
    }

    /// See ``WKURLSchemeTask/didFailWithError(_:)``.
    public func didFailWithError(_ error: any Error) {
        guard check("didFailWithError:", { _ in nil }) else { return }
        record(.fail(String(describing: error)), completing: true)
    }
}
