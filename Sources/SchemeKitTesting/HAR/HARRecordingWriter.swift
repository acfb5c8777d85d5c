import Foundation
import SchemeKit

/// The writer a ``HARRecorder`` gives its handler: forwards every call to the engine's writer
/// and, once a call went through, keeps a copy (the head, the body bytes into a spool, the
/// finish), so only what really reached the engine is recorded.
final class HARRecordingWriter<Base: SchemeResponseWriter>: SchemeForwardingWriter {
    struct State {
        var head: SchemeResponse?
        var headAt: ContinuousClock.Instant?
        var finished = false
        var failed = false
        var endedAt: ContinuousClock.Instant?
        let spool: HARBodySpool
    }

    let base: Base
    private let state: Locked<State>

    init(base: Base, spool: HARBodySpool) {
        self.base = base
        self.state = Locked(State(spool: spool))
    }

    func writeHead(_ response: SchemeResponse) async throws {
        try await base.writeHead(response)
        state.withLock { state in
            state.head = response
            state.headAt = .now
        }
    }

    func write(_ body: SchemeBody) async throws {
        try await base.write(body)
        state.withLock { state in body.withUnsafeBytes { state.spool.append($0) } }
    }

    func finish() async throws {
        try await base.finish()
        state.withLock { state in
            state.finished = true
            state.endedAt = .now
        }
    }

    func fail(_ error: any Error) async throws {
        state.withLock { $0.failed = true }
        try await base.fail(error)
    }

    /// What was delivered, when the exchange completed: a head, no failure, and a finish (or a
    /// handler that returned `handled` without finishing and was not stopped: the registry then
    /// finishes the task for it).
    func completed(stopped: Bool) -> (
        head: SchemeResponse, headAt: ContinuousClock.Instant,
        endedAt: ContinuousClock.Instant, spool: HARBodySpool
    )? {
        state.withLock { state in
            guard let head = state.head, let headAt = state.headAt, !state.failed, state.finished || !stopped else {
                return nil
            }
            return (head, headAt, state.endedAt ?? .now, state.spool)
        }
    }
}
